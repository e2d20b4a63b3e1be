// A stand-in for PayPal's browser SDK, served by `npm run paypal:fake` (e2e/support/paypal/paypal-fake.mjs) in place of
// https://www.paypal.com/sdk/js. It offers what @paypal/react-paypal-js uses of `paypal.Buttons`: one button per
// plan that, when clicked, asks the page for a subscription (createSubscription), has the stand-in create it
// (APPROVAL_PENDING) and the buyer "approve" it (ACTIVE, first payment made), then calls onApprove. It reports
// what the page asked for to window.__paypalStandInReport when a test provides it.
(function () {
  var origin = new URL(document.currentScript.src).origin;
  function report(kind, value) {
    if (typeof window.__paypalStandInReport === "function") window.__paypalStandInReport(kind, value);
  }
  function post(path, body) {
    return fetch(origin + path, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: JSON.stringify(body || {}),
    }).then(function (res) {
      if (!res.ok) throw new Error("PayPal stand-in answered " + res.status);
      return res.json();
    });
  }
  window.paypal = {
    version: "stand-in",
    Buttons: function (options) {
      return {
        isEligible: function () {
          return true;
        },
        render: function (container) {
          var button = document.createElement("button");
          button.type = "button";
          button.textContent = "PayPal Subscribe";
          button.addEventListener("click", function () {
            var actions = {
              subscription: {
                create: function (details) {
                  report("create", details);
                  return post("/sdk/subscriptions", details).then(function (created) {
                    return created.id;
                  });
                },
              },
            };
            Promise.resolve(options.createSubscription({}, actions))
              .then(function (subscriptionID) {
                return post("/sdk/subscriptions/" + encodeURIComponent(subscriptionID) + "/approve").then(function () {
                  report("approve", subscriptionID);
                  return options.onApprove({ subscriptionID: subscriptionID, orderID: "O-" + subscriptionID }, {});
                });
              })
              .catch(function (err) {
                report("error", String(err));
              });
          });
          (typeof container === "string" ? document.querySelector(container) : container).appendChild(button);
          if (options.onInit)
            options.onInit({}, { enable: Promise.resolve.bind(Promise), disable: Promise.resolve.bind(Promise) });
          return Promise.resolve();
        },
        close: function () {
          return Promise.resolve();
        },
        updateProps: function () {
          return Promise.resolve();
        },
      };
    },
  };
})();
