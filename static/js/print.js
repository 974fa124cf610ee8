/* "Print this page" on the print views: on a phone the browser's own Print hides under
   Share. A file of its own, so that the page needs no nonce: visitors are served it
   whole from the cache. */
document.getElementById("print-page").addEventListener("click", function () {
  window.print();
});
