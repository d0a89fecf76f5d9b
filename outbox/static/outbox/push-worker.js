// The service worker of Taki Online's pushes: each push shows its title and words, and a click
// opens the page it leads to. The words come from the server, in the person's language.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === "string" ? data.title : "Taki Online";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === "string" ? data.body : "",
      data: { url: typeof data.url === "string" ? data.url : "/" },
      tag: typeof data.url === "string" ? data.url : undefined,
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url || "/", self.location.origin);
  if (url.origin !== self.location.origin) {
    return;
  }
  event.waitUntil(
    self.clients.matchAll({ type: "window" }).then((windows) => {
      for (const client of windows) {
        if (client.url === url.href && "focus" in client) {
          return client.focus();
        }
      }
      return self.clients.openWindow(url.href);
    }),
  );
});
