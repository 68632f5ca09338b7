/* A table that still scrolls sideways (a very narrow screen, a large zoom)
   can be reached and scrolled with the keyboard: Material wraps each table in
   a scrolling box, and this gives such a box a tab stop and a name. A box
   that fits loses them again, so a page has no needless tab stops. */
(function () {
  function mark() {
    var boxes = document.querySelectorAll(".md-typeset__scrollwrap");
    for (var i = 0; i < boxes.length; i++) {
      var box = boxes[i];
      if (box.scrollWidth > box.clientWidth + 1) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", "Table (scrolls sideways)");
      } else if (box.hasAttribute("tabindex")) {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    }
  }
  if (typeof document$ !== "undefined") {
    document$.subscribe(function () { setTimeout(mark, 0); });
  }
  window.addEventListener("load", mark);
  window.addEventListener("resize", mark);
})();
