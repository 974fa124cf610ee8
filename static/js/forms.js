/* A form that changes something (a POST) is sent once per tap: the second tap of a
   double tap, while the first is on its way, is not sent. (It was: the first saved, then
   the page drew the second's answer, "Nothing was saved", the name already taken by the
   first.) With no connection, it is not sent at all, and says so above the form (it was
   the browser's own offline page). On Wi-Fi with no internet behind it the phone
   believes it is online and sends: the service worker (sw.js) then shows a "No
   connection" page in place of the browser's own. Forms that answer in place (htmx,
   the game sheet) stop the browser's own sending and are left to their own ways. */
(function () {
  "use strict";

  var SENDING_FOR = 10000; // ms: a form whose answer never came can be sent again after

  function sayOffline(form) {
    var line = form.querySelector("[data-offline]");
    if (!line) {
      line = document.createElement("p");
      line.className = "message error";
      line.setAttribute("role", "alert");
      line.setAttribute("data-offline", "");
      form.prepend(line);
    }
    line.textContent = "No connection: nothing was sent. Tap it again when the connection " +
      "is back.";
    line.scrollIntoView({ block: "nearest" });
  }

  window.addEventListener("submit", function (event) {
    var form = event.target;
    // Read as attributes: a field named "target" (the season's) hides form.target.
    var method = (form.getAttribute("method") || "get").toLowerCase();
    if (event.defaultPrevented || form.getAttribute("target") || method !== "post") return;
    if (!navigator.onLine) {
      event.preventDefault();
      sayOffline(form);
      return;
    }
    if (form.dataset.sending) {
      event.preventDefault();
      return;
    }
    form.dataset.sending = "1";
    window.setTimeout(function () { delete form.dataset.sending; }, SENDING_FOR);
  });

  // The "No connection" page's Go back (static/js/sw.js shows it in the browser's own
  // offline page's place): back to the page the tap was made on. None when it came from
  // no page of this site (a link opened from another app with no connection).
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-back]")) window.history.back();
  });
  document.addEventListener("DOMContentLoaded", function () {
    var fromHere = document.referrer.indexOf(window.location.origin + "/") === 0;
    document.querySelectorAll("[data-back]").forEach(function (button) {
      (button.closest("p") || button).hidden = !fromHere;
    });
  });

  /* The service worker (sw.js), on the pages of someone logged in and on every table
     sheet (a scorer link's too): once it is ready, the "No connection" page and
     this page's files are kept on the phone, so a form sent on Wi-Fi with no internet
     behind it gets that page, even on a phone that has opened no sheet yet (Start
     game). A page whose body is marked data-keep-offline (the sheet) is kept too, to
     reload with no connection. */
  function keepForOffline() {
    var holder = document.body;
    if (!holder.dataset.sw || !("serviceWorker" in navigator) || !window.caches) return;
    navigator.serviceWorker.register(holder.dataset.sw, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      // Once it has taken over: a new worker first drops what was kept (sw.js).
      var worker = registration.active;
      return worker.state !== "activating" ? null : new Promise(function (done) {
        worker.addEventListener("statechange", done);  // activated (or replaced)
      });
    }).then(function () {
      var files = [holder.dataset.noConnection];
      if (holder.hasAttribute("data-keep-offline")) files.push(window.location.pathname);
      document.querySelectorAll("script[src], link[rel=stylesheet]").forEach(function (el) {
        files.push(el.getAttribute("src") || el.getAttribute("href"));
      });
      // Each once: sw.js keeps a sheet's copy current as it is opened, and sheet.js as
      // it changes; fetched again on every page, they doubled the site's work.
      return caches.open("sheet-shell-v1").then(function (cache) {
        return Promise.all(files.map(function (file) {
          return cache.match(file).then(function (kept) { return kept || cache.add(file); });
        }));
      });
    }).then(function () {
      document.documentElement.dataset.offlineReady = "1";
    }, function () { /* nothing kept: the pages still work online */ });
  }
  keepForOffline();

  // Back to a page whose form was sent: it can be sent again.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    document.querySelectorAll("form[data-sending]").forEach(function (form) {
      delete form.dataset.sending;
    });
  });
})();
