// The snippet customers load from {host}/snippet.js. One IIFE whose one import (the URL rules' tracking
// parameters) scripts/dev/build-snippet.mjs bundles in while it minifies; a test keeps it under 1,024 bytes gzipped.
// It asks /api/content (as JSON) for the current page and puts the content where the mapping says (docs/placement.md:
// first in <body> unless a selector names an element), inside one marked container, and sets the mapping's SEO fields
// in <head>; again whenever a history change moves to another page (a `replaceState` of the same URL, as routers make
// to keep scroll state, asks nothing). On a page the edge proxy already delivered (its <meta name="dynamic-content">
// in <head>) the first load asks nothing; later requests say `nav=1`, so that the Worker counts them where the edge
// counted the first load.
import { TRACKING_PARAMETERS } from "#contract/url-rules";

(function (w, d, l, h) {
  var script = d.currentScript;
  var TRACKING = new RegExp("^(" + TRACKING_PARAMETERS.join("|").replace(/\*/g, ".*") + ")$", "i");
  var base = script ? new URL(script.src).origin : "";
  var MARK = "data-dynamic-content";
  var seq = 0;
  var last = "";

  // Where the content goes: the element the answer's selector names (none until it exists), else <body>.
  function target(content) {
    try {
      return content.s ? d.querySelector(content.s) : d.body;
    } catch (e) {}
  }

  // An element of ours in <head>, removed with the content.
  function add(tag) {
    var el = d.createElement(tag);
    el.setAttribute(MARK, "");
    return d.head.appendChild(el);
  }

  // Removes what the last page's content added (putting back an element it replaced), then adds this page's
  // (content-route.ts `snippetAnswer` says what each field holds).
  function inject(content, el) {
    d.querySelectorAll("[" + MARK + "]").forEach(function (old) {
      old.r ? old.replaceWith(old.r) : old.remove();
    });
    if (el && content.h) {
      var box = d.createElement("div");
      box.setAttribute(MARK, "");
      box.innerHTML = content.h;
      if (content.p == "replace") {
        box.r = el;
        el.replaceWith(box);
      } else el.insertAdjacentElement(content.p || "afterbegin", box);
    }
    if (content.t) d.title = content.t;
    (content.e || []).forEach(function (e) {
      var el = d.head.querySelector(e[0] + "[" + e[1] + "=" + e[2] + "]") || add(e[0]);
      el.setAttribute(e[1], e[2]);
      el.setAttribute(e[3], e[4]);
    });
    if (content.j) {
      var ld = add("script");
      ld.type = "application/ld+json";
      ld.textContent = content.j;
    }
  }

  // Injects once the element is there: while the page is still parsed, at DOMContentLoaded at the latest.
  function place(content, n) {
    if (n != seq) return;
    var el = target(content);
    if (!el && d.readyState == "loading")
      d.addEventListener("DOMContentLoaded", function () {
        place(content, n);
      });
    else inject(content, el);
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
    if (!id) return place({}, n);
    fetch(
      base +
        "/api/content?format=json&u=" +
        encodeURIComponent(id) +
        "&url=" +
        encodeURIComponent(url) +
        (nav ? "&nav=1" : ""),
    )
      .then(function (r) {
        return r.status == 200 ? r.json() : {};
      })
      .catch(function () {
        return {};
      })
      .then(function (content) {
        place(content, n);
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
