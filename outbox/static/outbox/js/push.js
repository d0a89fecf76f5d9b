// The account page's push switch: registers the service worker (/push-worker.js), subscribes
// this browser with the site's VAPID key and sends the subscription to the server, or takes it
// back. The words are the page's; this only shows or hides them.
(function () {
  const section = document.querySelector("[data-push-key]");
  if (!section) {
    return;
  }
  const key = section.dataset.pushKey;
  const button = section.querySelector("[data-push-toggle]");
  const state = section.querySelector("[data-push-state]");
  const unsupported = section.querySelector("[data-push-unsupported]");
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !key || !button) {
    if (unsupported) {
      unsupported.hidden = false;
    }
    return;
  }

  function bytes(base64) {
    const padded = (base64 + "=".repeat((4 - (base64.length % 4)) % 4))
      .replace(/-/g, "+")
      .replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  function send(url, subscription) {
    return fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
      body: JSON.stringify(subscription),
      credentials: "same-origin",
    });
  }

  function show(subscribed) {
    button.hidden = false;
    button.setAttribute("aria-pressed", subscribed ? "true" : "false");
    for (const label of button.querySelectorAll("[data-when]")) {
      label.hidden = label.dataset.when !== (subscribed ? "on" : "off");
    }
    if (state) {
      for (const line of state.querySelectorAll("[data-when]")) {
        line.hidden = line.dataset.when !== (subscribed ? "on" : "off");
      }
    }
  }

  navigator.serviceWorker.register("/push-worker.js").then((registration) => {
    registration.pushManager.getSubscription().then((current) => show(Boolean(current)));
    button.addEventListener("click", async () => {
      const current = await registration.pushManager.getSubscription();
      if (current) {
        await send(button.dataset.unsubscribe, current.toJSON());
        await current.unsubscribe();
        show(false);
        return;
      }
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        show(false);
        return;
      }
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: bytes(key),
      });
      await send(button.dataset.subscribe, subscription.toJSON());
      show(true);
    });
  });
})();
