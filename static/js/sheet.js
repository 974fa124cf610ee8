/* The table sheet: small helpers on top of forms that work without JavaScript.
   - htmx swaps in the sheet's answer to a refused deal (422) or a lost race (409);
   - split entry shows "A 3 – 2 B" as soon as a count is tapped;
   - trick by trick: the fifth tap saves;
   - steppers: − and + buttons and a live "x of 5" total. */
(function () {
  "use strict";

  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (status === 409 || status === 422) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  function updateSplit(form) {
    var picked = form.querySelector('input[name="first"]:checked');
    var rest = form.querySelector("[data-split-rest]");
    if (!picked || !rest) return;
    var first = parseInt(picked.value, 10);
    rest.textContent = form.dataset.first + " " + first + " – " + (5 - first) + " " + form.dataset.other;
  }

  function updateTotal(form) {
    var total = form.querySelector("[data-total]");
    if (!total) return;
    var sum = 0;
    form.querySelectorAll('input[type="number"]').forEach(function (input) {
      sum += parseInt(input.value, 10) || 0;
    });
    total.hidden = false;
    total.querySelector("output").textContent = String(sum);
    total.classList.toggle("over", sum > 5);
  }

  function wake(root) {
    root.querySelectorAll("[data-steppers]").forEach(function (form) {
      form.querySelectorAll(".step").forEach(function (button) { button.hidden = false; });
      updateTotal(form);
    });
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    var form = input.form;
    if (!form) return;
    if (form.hasAttribute("data-split") && input.name === "first") updateSplit(form);
    if (form.hasAttribute("data-steppers")) updateTotal(form);
    if (form.hasAttribute("data-order") && /^trick_\d$/.test(input.name)) {
      var trick = parseInt(input.name.slice(6), 10);
      if (trick === 5) {
        form.requestSubmit();
      } else {
        var next = form.querySelector('[data-trick="' + (trick + 1) + '"]');
        if (next) next.scrollIntoView({ block: "nearest", behavior: "smooth" });
      }
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest(".step");
    if (!button) return;
    var input = button.closest("[data-stepper]").querySelector('input[type="number"]');
    var value = (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10);
    input.value = String(Math.max(0, Math.min(5, value)));
    updateTotal(button.form);
  });

  document.addEventListener("htmx:afterSettle", function () { wake(document); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { wake(document); });
  } else {
    wake(document);
  }
})();
