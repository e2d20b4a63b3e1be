// The snippet customers load from {host}/snippet.js. One IIFE whose one import (the URL rules' tracking
// parameters) scripts/build-snippet.mjs bundles in while it minifies; a test keeps it under 1,024 bytes gzipped.
// It asks /api/content for the current page and puts the answer first in <body>, inside one marked container,
// again whenever a history change moves to another page (a `replaceState` of the same URL, as routers make to keep
// scroll state, asks nothing). On a page the edge proxy
// already delivered (its <meta name="dynamic-content"> in <head>) the first load asks nothing; later requests
// say `nav=1`, so that the Worker counts them where the edge counted the first load.
import { TRACKING_PARAMETERS } from "../contract/url-rules";

(function (w, d, l, h) {
  var script = d.currentScript;
  var TRACKING = new RegExp("^(" + TRACKING_PARAMETERS.join("|").replace(/\*/g, ".*") + ")$", "i");
  var base = script ? new URL(script.src).origin : "";
  var MARK = "data-dynamic-content";
  var seq = 0;
  var last = "";

  function inject(html) {
    var old = d.querySelector("[" + MARK + "]");
    if (old) old.remove();
    if (!html) return;
    var box = d.createElement("div");
    box.setAttribute(MARK, "");
    box.innerHTML = html;
    d.body.insertBefore(box, d.body.firstChild);
  }

  // The page as the URL rules see it: without its hash and tracking parameters (a script that tidies
  // `?utm_source=…` away with replaceState stays on the same page).
  function page() {
    var u = new URL(l.href);
    u.hash = "";
    Array.from(u.searchParams.keys()).forEach(function (k) {
      if (TRACKING.test(k)) u.searchParams.delete(k);
    });
    return u.href;
  }

  // nav: 1 after a history change (asks only when the page changed), 0 when asked by the page.
  function run(nav) {
    var id = w.dynamicContentUserId;
    var url = l.href.split("#")[0];
    if (nav && page() == last) return;
    last = page();
    var n = ++seq;
    if (!id) return inject("");
    fetch(base + "/api/content?u=" + encodeURIComponent(id) + "&url=" + encodeURIComponent(url) + (nav ? "&nav=1" : ""))
      .then(function (r) {
        return r.status == 200 ? r.text() : "";
      })
      .catch(function () {
        return "";
      })
      .then(function (html) {
        if (n != seq) return;
        if (d.body) inject(html);
        else
          d.addEventListener("DOMContentLoaded", function () {
            if (n == seq) inject(html);
          });
      });
  }

  function wrap(name) {
    var original = h[name];
    h[name] = function () {
      var result = original.apply(this, arguments);
      run(1);
      return result;
    };
  }

  wrap("pushState");
  wrap("replaceState");
  w.addEventListener("popstate", function () {
    run(1);
  });
  w.setDynamicContentUserId = function (id) {
    w.dynamicContentUserId = id;
    run();
  };
  if (d.querySelector("meta[name=dynamic-content]")) last = page();
  else run();
})(window, document, location, history);
