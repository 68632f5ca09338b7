/* Sixes Press: lets the site's search run when the site is opened straight
   from disk (file://), where browsers refuse to start Web Workers. The worker
   script runs in a hidden iframe instead, and messages are relayed both ways.
   Material for MkDocs uses this file in place of its online default because
   mkdocs.yml lists it under extra.polyfills. */
(function () {
  "use strict";
  if (location.protocol !== "file:") {
    return;
  }

  var nativePostMessage = window.postMessage;

  // Runs inside the iframe before the worker script: give it the worker API.
  var boot = [
    "self.postMessage = function (data) { parent.postMessage(data, '*'); };",
    "self.importScripts = function () {",
    "  var urls = Array.prototype.slice.call(arguments);",
    "  return urls.reduce(function (done, url) {",
    "    return done.then(function () {",
    "      return new Promise(function (resolve, reject) {",
    "        var tag = document.createElement('script');",
    "        tag.src = url; tag.onload = resolve; tag.onerror = reject;",
    "        document.body.appendChild(tag);",
    "      });",
    "    });",
    "  }, Promise.resolve());",
    "};"
  ].join("\n");

  class FrameWorker extends EventTarget {
    constructor(url) {
      super();
      this.onmessage = null;
      this.onerror = null;
      var script = new URL(url, location.href).href;
      this.frame = document.createElement("iframe");
      this.frame.setAttribute("aria-hidden", "true");
      this.frame.style.display = "none";
      this.frame.srcdoc = "<!doctype html><body><script>" + boot + "<\/script>" +
        "<script src=\"" + script.replace(/"/g, "&quot;") + "\"><\/script></body>";
      this.ready = new Promise(function (resolve) {
        this.frame.addEventListener("load", resolve, { once: true });
      }.bind(this));
      window.addEventListener("message", function (event) {
        if (!this.frame || event.source !== this.frame.contentWindow) {
          return;
        }
        var message = new MessageEvent("message", { data: event.data });
        this.dispatchEvent(message);
        if (typeof this.onmessage === "function") {
          this.onmessage(message);
        }
      }.bind(this));
      (document.body || document.documentElement).appendChild(this.frame);
    }

    postMessage(data) {
      // The frame's own postMessage now talks to us, so deliver with the
      // browser's original method.
      this.ready.then(function () {
        nativePostMessage.call(this.frame.contentWindow, data, "*");
      }.bind(this));
    }

    terminate() {
      this.frame.remove();
      this.frame = null;
    }
  }

  window.Worker = FrameWorker;
  // Material's search worker looks for this name to learn that it runs in a
  // frame: it then finds its language files (assets/javascripts/lunr/, for
  // a site not in English) beside its own script, not beside the page.
  window.IFrameWorker = FrameWorker;
})();
