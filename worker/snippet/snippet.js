// The snippet customers load from {host}/snippet.js. One IIFE, no imports; scripts/build-snippet.mjs minifies it
// and a test keeps it under 1,024 bytes gzipped. It asks /api/content for the current page and puts the answer
// first in <body>, inside one marked container, again whenever a history change moves to another URL (a
// `replaceState` of the same URL, as routers make to keep scroll state, asks nothing). On a page the edge proxy
// already delivered (its <meta name="dynamic-content"> in <head>) the first load asks nothing; later requests
// say `nav=1`, so that the Worker counts them where the edge counted the first load.
(function (w, d, l, h) {
  var script = d.currentScript;
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

  // nav: 1 after a history change (asks only when the URL without its hash changed), 0 when asked by the page.
  function run(nav) {
    var id = w.dynamicContentUserId;
    var url = l.href.split("#")[0];
    if (nav && url == last) return;
    last = url;
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
  if (d.querySelector("meta[name=dynamic-content]")) last = l.href.split("#")[0];
  else run();
})(window, document, location, history);
