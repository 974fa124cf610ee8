/* The results grid: a tap with no connection, or one the connection drops, says so in
   its table's box and changes nothing there (the tap is not shown as saved, and nothing
   is kept on the phone: it is tapped again when the connection is back).
   A table's scorer link: a tap with no connection says so on the page (it was the
   browser's own offline page), and the page moves on to the next game by itself. */
(function () {
  "use strict";

  function say(form, text) {
    var table = form.closest && form.closest(".grid-table");
    if (!table) return; // the grid's own asking every 10 s tries again by itself
    var line = table.querySelector(".error");
    if (!line) {
      line = document.createElement("p");
      line.className = "error";
      line.setAttribute("role", "alert");
      form.before(line);
    }
    line.textContent = text;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (navigator.onLine) return;
    var form = event.detail.elt;
    if (!form.closest || !form.closest(".grid-table")) return;
    event.preventDefault();
    say(form, "No connection: this result was not saved. Tap it again when the " +
      "connection is back.");
  });

  document.addEventListener("htmx:sendError", function (event) {
    say(event.detail.elt, "The connection dropped before an answer came: this result " +
      "may not be saved. Tap it again when the connection is back.");
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (navigator.onLine || !form.classList.contains("table-scorer")) return;
    event.preventDefault();
    var line = document.getElementById("scorer-said");
    line.setAttribute("role", "alert");
    line.textContent = "No connection: this result was not sent. Tap it again when the " +
      "connection is back.";
  });

  // Every 15 s the scorer link asks for its page again: once another game is in play
  // (or the drive has started or finished), it shows that one. Never while a tap is on
  // its way: the next game starts only once this table's result is in.
  var watch = document.getElementById("table-watch");
  if (watch && watch.dataset.status !== "finished") {
    window.setInterval(function () {
      if (!navigator.onLine) return;
      fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
        .then(function (response) { return response.text(); })
        .then(function (html) {
          var now = new DOMParser().parseFromString(html, "text/html").getElementById("table-watch");
          if (now && (now.dataset.game !== watch.dataset.game ||
                      now.dataset.status !== watch.dataset.status)) {
            window.location.replace(window.location.href);  // a GET, never a POST again
          }
        }, function () { /* no answer: asked again in 15 s */ });
    }, 15000);
  }
})();
