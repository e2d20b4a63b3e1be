// A stand-in for PayPal's browser SDK, served in place of https://www.paypal.com/sdk/js in the end-to-end tests.
// It offers what @paypal/react-paypal-js uses of `paypal.Buttons`: one button per plan that, when clicked, asks
// the page for a subscription (createSubscription), "approves" it with a made-up subscription id (onApprove),
// and reports what the page asked for to window.__paypalStandInReport when the test provides it.
(function () {
  var counter = 0;
  function report(kind, value) {
    if (typeof window.__paypalStandInReport === "function") window.__paypalStandInReport(kind, value);
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
                  counter += 1;
                  return Promise.resolve("I-STANDIN-" + counter);
                },
              },
            };
            Promise.resolve(options.createSubscription({}, actions)).then(function (subscriptionID) {
              report("approve", subscriptionID);
              return options.onApprove({ subscriptionID: subscriptionID, orderID: "O-" + counter }, {});
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
