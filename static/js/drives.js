/* The results grid: a tap with no connection, or one the connection drops, says so in
   its table's box and changes nothing there (the tap is not shown as saved, and nothing
   is kept on the phone: it is tapped again when the connection is back). */
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
})();
