/* The service worker (served as /sw.js, scope "/"), registered by forms.js on the pages
   of someone logged in and on table sheets: keeps each table sheet the phone opened,
   and the files it needs, so a sheet reloads with no connection. Sheets are fetched
   from the network first; the copy is only for when there is none. Any other page, or
   form sent as a page, that cannot reach the site gets the "No connection" page kept
   on the phone, in place of the browser's own: forms.js stops a form when the phone
   knows it is offline, but on Wi-Fi with no internet behind it the phone believes it
   is online, sends, and the sending fails. */
"use strict";

var SHELL = "sheet-shell-v1";
var SHEET = /^\/games\/\d+\/$/;
var NO_CONNECTION = "/games/no-connection/";

self.addEventListener("install", function () { self.skipWaiting(); });
// A new worker comes with a newer site: the "No connection" page kept with the older
// one is dropped (forms.js keeps it once, on the next page of someone logged in, as the
// site draws it now), not shown for good as the older site drew it.
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) {
    return cache.delete(NO_CONNECTION);
  }).then(function () {
    return self.clients.claim();
  }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && request.method === "GET" && SHEET.test(url.pathname)) {
    event.respondWith(
      fetch(request).then(function (response) {
        if (response.ok) {
          var copy = response.clone();
          caches.open(SHELL).then(function (cache) { cache.put(url.pathname, copy); });
        }
        return response;
      }).catch(function () {
        return caches.match(url.pathname).then(function (hit) { return hit || Response.error(); });
      })
    );
  } else if (request.mode === "navigate") {
    event.respondWith(
      fetch(request).catch(function () {
        return caches.match(NO_CONNECTION).then(function (hit) { return hit || Response.error(); });
      })
    );
  } else if (request.method === "GET" && url.pathname.indexOf("/static/") === 0) {
    event.respondWith(
      caches.match(request).then(function (hit) { return hit || fetch(request); })
    );
  }
});
