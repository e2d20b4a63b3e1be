// A local stand-in for PayPal's IPN post-back (`npm run paypal:fake`), for trying notifications by hand and
// for the end-to-end tests: it answers VERIFIED to every `cmd=_notify-validate` post (INVALID to anything else).
// Start the product with PAYPAL_IPN_VERIFY_URL set to the address it prints. Given `sdkScript`, it also serves
// that JavaScript at /sdk/js, standing in for PayPal's browser SDK (PAYPAL_SDK_URL).
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

export function startPayPalFake(port = 0, host = "127.0.0.1", sdkScript = undefined) {
  const received = [];
  const server = createServer((req, res) => {
    if (req.method === "GET" && sdkScript && req.url?.startsWith("/sdk/js")) {
      res.writeHead(200, { "Content-Type": "text/javascript", "Access-Control-Allow-Origin": "*" });
      res.end(sdkScript);
      return;
    }
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      received.push(body);
      const ok = req.method === "POST" && body.subarray(0, 21).toString() === "cmd=_notify-validate&";
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end(ok ? "VERIFIED" : "INVALID");
    });
  });
  return new Promise((resolve) => {
    server.listen(port, host, () => {
      const origin = `http://${host}:${server.address().port}`;
      resolve({
        url: `${origin}/cgi-bin/webscr`,
        sdkUrl: `${origin}/sdk/js`,
        received,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PAYPAL_FAKE_PORT ?? 8790);
  const fake = await startPayPalFake(port);
  console.log(`PayPal IPN verification stand-in: ${fake.url}`);
  console.log(`Start the product with: PAYPAL_IPN_VERIFY_URL=${fake.url} npm start`);
}
