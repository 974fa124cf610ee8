/* The service worker (served as /sw.js, scope "/"): keeps each table sheet the phone
   opened, and the files it needs, so a sheet reloads with no connection. Sheets are
   fetched from the network first; the copy is only for when there is none. */
"use strict";

var SHELL = "sheet-shell-v1";
var SHEET = /^\/games\/\d+\/$/;

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && SHEET.test(url.pathname)) {
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
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(
      caches.match(request).then(function (hit) { return hit || fetch(request); })
    );
  }
});
