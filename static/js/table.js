// The table page's behaviour. Numbers and state only: every word is in the templates.
//
// - Counts down the turn clocks. The server renders each clock with the seconds left
//   (data-seconds-left) when it sent the fragment; counting from the moment the element appears
//   avoids trusting the browser's clock.
// - Keeps the keyboard focus in the hand across pushes: htmx swaps #table-hand whole, which
//   drops the focus to <body>; it is put back on the same card, else the nearest one, else the
//   hand itself.
// - Cues the start of the player's turn: the page title, a screen-reader announcement and, if
//   the player turned it on, a short sound.
(function () {
  "use strict";
  var ends = new WeakMap();

  function tick() {
    var now = performance.now();
    document.querySelectorAll("[data-seconds-left]").forEach(function (clock) {
      if (!ends.has(clock)) {
        ends.set(clock, now + 1000 * Number(clock.getAttribute("data-seconds-left")));
      }
      var left = Math.max(0, Math.ceil((ends.get(clock) - now) / 1000));
      var text = String(left);
      if (clock.textContent !== text) {
        clock.textContent = text;
      }
    });
  }

  // ---------------------------------------------------------------- focus across pushes

  var FOCUSABLE = "button, input:not([type=hidden]), [href]";
  var saved = null;

  function hand() {
    return document.getElementById("table-hand");
  }

  function describeFocus() {
    var active = document.activeElement;
    var section = hand();
    if (!section || !active || !section.contains(active)) {
      return null;
    }
    var item = active.closest("[data-card]");
    var cards = Array.prototype.slice.call(section.querySelectorAll("[data-card]"));
    var form = active.closest("form");
    var type = form && form.querySelector("input[name=type]");
    return {
      id: active.id || "",
      card: item ? item.getAttribute("data-card") : null,
      index: item ? cards.indexOf(item) : -1,
      color: active.name === "color" ? active.value : null,
      type: type && !item ? type.value : null,
      checked: section.querySelector("#say-last-card:checked") !== null,
    };
  }

  function focusTarget(section, was) {
    if (was.id && was.id !== section.id && document.getElementById(was.id)) {
      return document.getElementById(was.id);
    }
    var cards = Array.prototype.slice.call(section.querySelectorAll("[data-card]"));
    if (was.card) {
      var same = cards.filter(function (li) {
        return li.getAttribute("data-card") === was.card && li.querySelector(FOCUSABLE);
      });
      if (same.length) {
        var choice = was.color && same[0].querySelector("[value=" + was.color + "]");
        return choice || same[0].querySelector(FOCUSABLE);
      }
    }
    if (was.type) {
      var control = section.querySelector(".controls input[name=type][value=" + was.type + "]");
      if (control) {
        return control.form.querySelector("button");
      }
    }
    if (was.index >= 0) {
      // The nearest card that can be played, looking outwards from where the focus was.
      for (var step = 0; step < cards.length; step++) {
        var around = [cards[was.index + step], cards[was.index - step]];
        for (var i = 0; i < around.length; i++) {
          var found = around[i] && around[i].querySelector(FOCUSABLE);
          if (found) {
            return found;
          }
        }
      }
    }
    return section.querySelector(FOCUSABLE) || section;
  }

  function restoreFocus() {
    var section = hand();
    var was = saved;
    saved = null;
    if (!section || !was) {
      return;
    }
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) {
      return; // the focus survived the swap, or the player moved it meanwhile
    }
    if (was.checked) {
      var say = section.querySelector("#say-last-card");
      if (say) {
        say.checked = true;
      }
    }
    focusTarget(section, was).focus({ preventScroll: true });
  }

  // ---------------------------------------------------------------- the turn cue

  var myTurn = false;
  var baseTitle = document.title;
  var audio = null;

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) {
      return;
    }
    audio = audio || new Context();
    var tone = audio.createOscillator();
    var gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  }

  function cueTurn() {
    var section = hand();
    var now = !!(section && section.hasAttribute("data-your-turn"));
    var cue = document.getElementById("turn-cue");
    if (now === myTurn || !cue) {
      myTurn = now;
      return;
    }
    myTurn = now;
    if (now) {
      document.title = cue.getAttribute("data-title-words") + " · " + baseTitle;
      cue.textContent = cue.getAttribute("data-turn-words");
      var sound = document.getElementById("turn-sound");
      if (sound && sound.checked) {
        beep();
      }
    } else {
      document.title = baseTitle;
      cue.textContent = "";
    }
  }

  function soundToggle() {
    var sound = document.getElementById("turn-sound");
    if (!sound) {
      return;
    }
    sound.checked = window.localStorage.getItem("taki-turn-sound") === "on";
    sound.addEventListener("change", function () {
      window.localStorage.setItem("taki-turn-sound", sound.checked ? "on" : "off");
    });
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    saved = describeFocus();
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    restoreFocus();
    cueTurn();
  });

  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", function () {
    tick();
    soundToggle();
    cueTurn();
  });
})();
