/** Debian's Chromium driven by playwright-core, started with the flags this closed network needs. */
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** `hostMap` sends made-up hostnames to local ports (Chromium's `MAP shop.test 127.0.0.1:8787` rules). */
export function launchBrowser(hostMap: Record<string, string> = {}): Promise<Browser> {
  const rules = Object.entries(hostMap).map(([host, target]) => `MAP ${host} ${target}`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...(rules.length > 0 ? [`--host-resolver-rules=${rules.join(",")}`] : []),
    ],
  });
}
