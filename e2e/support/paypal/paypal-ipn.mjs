// `npm run paypal:ipn -- FILE`: posts a recorded IPN message (the raw form-encoded body, as PayPal sends it) to
// the local product, as PayPal would. The product verifies it with PAYPAL_IPN_VERIFY_URL: point that at
// `npm run paypal:fake` to try the flow without PayPal. DC_URL overrides the product's address.
import { readFileSync } from "node:fs";

const file = process.argv[2];
if (!file) {
  console.error("Usage: npm run paypal:ipn -- FILE   (e.g. docs/paypal/recurring-payment.ipn)");
  process.exit(2);
}
const base = process.env.DC_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;
const body = readFileSync(file);
const res = await fetch(`${base}/api/paypal/ipn`, {
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body,
});
console.log(`POST ${base}/api/paypal/ipn (${body.length} bytes): ${res.status}`);
process.exit(res.ok ? 0 : 1);
