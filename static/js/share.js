/* "Send the link" beside an invitation's link: the phone's own share sheet (a text,
   WhatsApp, an email), or where there is none the link copied, said in words. Without
   this the link had to be pressed and held to copy. The button shows only with script. */
(function () {
  "use strict";
  var button = document.getElementById("share-link");
  var said = document.getElementById("share-said");
  if (!button || !said) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    var url = button.dataset.url;
    if (navigator.share) {
      navigator.share({ title: button.dataset.title, text: button.dataset.title, url: url })
        .catch(function () { /* closed without sending: nothing to say */ });
      return;
    }
    if (navigator.clipboard) {
      navigator.clipboard.writeText(url).then(function () {
        said.textContent = "Copied. Paste it into a text, WhatsApp or email message.";
      }, function () {
        said.textContent = "Could not copy: press and hold the link above, then Copy.";
      });
      return;
    }
    said.textContent = "Press and hold the link above, then Copy.";
  });
})();
