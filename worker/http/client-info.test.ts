import { describe, expect, it } from "vitest";
import { visitorKey } from "./client-info";

describe("the visitor a budget counts", () => {
  it("is the IPv4 address, the /64 of an IPv6 one, and 'unknown' without Cloudflare's header", () => {
    expect(visitorKey("203.0.113.7")).toBe("203.0.113.7");
    expect(visitorKey("2001:db8:85a3:0042:1000:8a2e:0370:7334")).toBe("2001:db8:85a3:42::/64");
    expect(visitorKey("2001:DB8:85a3:42::1")).toBe("2001:db8:85a3:42::/64");
    expect(visitorKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(visitorKey("::1")).toBe("0:0:0:0::/64");
    expect(visitorKey(undefined)).toBe("unknown");
  });

  it("gives every address of one /64 the same budget", () => {
    const keys = new Set(["2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:0db8:0001:0002:abcd::"].map(visitorKey));
    expect([...keys]).toEqual(["2001:db8:1:2::/64"]);
  });
});
