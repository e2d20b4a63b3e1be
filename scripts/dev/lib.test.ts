/** `npm start`'s local secrets: a `.dev.vars` without a usable APP_SECRET gets a random one, nothing else changes. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ensureDevVars, root } from "./lib.mjs";

const dirs: string[] = [];
function project(devVars?: string) {
  const dir = mkdtempSync(join(tmpdir(), "dc-dev-vars-"));
  dirs.push(dir);
  writeFileSync(join(dir, ".dev.vars.example"), readFileSync(join(root, ".dev.vars.example"), "utf8"));
  if (devVars !== undefined) writeFileSync(join(dir, ".dev.vars"), devVars);
  vi.spyOn(console, "log").mockImplementation(() => undefined);
  return { dir, devVars: () => readFileSync(join(dir, ".dev.vars"), "utf8") };
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});
const secretOf = (vars: string) => /^APP_SECRET=(.+)$/m.exec(vars)?.[1] ?? "";

describe("npm start's .dev.vars", () => {
  it("is created from the example with a random secret of 32 bytes", () => {
    const { dir, devVars } = project();
    ensureDevVars(dir);
    expect(Buffer.from(secretOf(devVars()), "base64")).toHaveLength(32);
  });

  it("gets a random secret added when it has none, or the example's placeholder, and keeps the rest", () => {
    for (const start of ["MAIL_FROM=shop@example.com", "MAIL_FROM=shop@example.com\nAPP_SECRET=change-me\n"]) {
      const { dir, devVars } = project(start);
      ensureDevVars(dir);
      expect(devVars()).toContain("MAIL_FROM=shop@example.com\n");
      expect(Buffer.from(secretOf(devVars()), "base64")).toHaveLength(32);
      expect(devVars().match(/APP_SECRET=/g)).toHaveLength(1);
    }
  });

  it("keeps a secret the operator chose, and warns about one under 32 bytes", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const chosen = project(`APP_SECRET=${"k".repeat(40)}\n`);
    ensureDevVars(chosen.dir);
    expect(chosen.devVars()).toBe(`APP_SECRET=${"k".repeat(40)}\n`);
    expect(warn).not.toHaveBeenCalled();
    const short = project("APP_SECRET=short\n");
    ensureDevVars(short.dir);
    expect(short.devVars()).toBe("APP_SECRET=short\n");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("shorter than 32 bytes"));
  });
});
