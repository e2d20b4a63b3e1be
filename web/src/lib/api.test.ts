import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { ApiError, apiJson, apiRequest, describeError, getJson } from "./api";

afterEach(() => {
  vi.unstubAllGlobals();
});

function headersOf(fetchMock: ReturnType<typeof mockFetch>, call = 0): Record<string, string> {
  return (fetchMock.mock.calls[call]?.[1]?.headers ?? {}) as Record<string, string>;
}

describe("apiRequest", () => {
  it("sends cookies and no api key or content type when none applies", async () => {
    const fetchMock = mockFetch(() => jsonResponse([]));

    await apiRequest("GET", "/api/mappings");

    expect(fetchMock).toHaveBeenCalledWith("/api/mappings", expect.objectContaining({ credentials: "include" }));
    expect(headersOf(fetchMock)).toEqual({});
  });

  it("sends the stored api key as X-API-Key", async () => {
    window.localStorage.setItem("apiKey", "key-123");
    const fetchMock = mockFetch(() => jsonResponse([]));

    await apiRequest("GET", "/api/mappings");

    expect(headersOf(fetchMock)["X-API-Key"]).toBe("key-123");
  });

  it("sends a JSON content type and the JSON body only when there is a body", async () => {
    const fetchMock = mockFetch(() => jsonResponse({}, 201));

    await apiRequest("POST", "/api/mappings", { url: "https://a.example", htmlContent: "<p>x</p>" });
    await apiRequest("DELETE", "/api/mappings/1");

    expect(headersOf(fetchMock, 0)["Content-Type"]).toBe("application/json");
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe('{"url":"https://a.example","htmlContent":"<p>x</p>"}');
    expect(headersOf(fetchMock, 1)).not.toHaveProperty("Content-Type");
    expect(fetchMock.mock.calls[1]?.[1]?.body).toBeUndefined();
  });

  it("throws 'status: body' for a non-OK answer and exposes the server's error field", async () => {
    mockFetch(() => jsonResponse({ error: "Invalid email or password" }, 401));

    const error = await apiRequest("POST", "/api/admin/login", {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('401: {"error":"Invalid email or password"}');
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).serverMessage).toBe("Invalid email or password");
  });

  it("uses the status text when the body is empty", async () => {
    mockFetch(() => new Response(null, { status: 503, statusText: "Service Unavailable" }));

    await expect(apiRequest("GET", "/api/auth")).rejects.toMatchObject({ message: "503: Service Unavailable" });
  });

  it("has no server message when the body is not the JSON error shape", async () => {
    mockFetch(() => new Response("upstream exploded", { status: 502, statusText: "Bad Gateway" }));

    const error = (await apiRequest("GET", "/api/auth").catch((e: unknown) => e)) as ApiError;

    expect(error.message).toBe("502: upstream exploded");
    expect(error.serverMessage).toBeUndefined();
  });
});

describe("apiJson", () => {
  it("answers the parsed body", async () => {
    mockFetch(() => jsonResponse({ message: "ok" }));
    await expect(apiJson("POST", "/api/register", { email: "a@b.example" })).resolves.toEqual({ message: "ok" });
  });
});

describe("getJson", () => {
  it("does a GET and parses JSON", async () => {
    const fetchMock = mockFetch(() => jsonResponse({ totalRequests: 3 }));

    await expect(getJson("/api/user/stats")).resolves.toEqual({ totalRequests: 3 });
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe("GET");
  });

  it("throws on 401 by default", async () => {
    mockFetch(() => jsonResponse({ error: "Invalid or missing API key" }, 401));
    await expect(getJson("/api/mappings")).rejects.toBeInstanceOf(ApiError);
  });

  it("answers null for a 401 when asked to", async () => {
    mockFetch(() => jsonResponse({ error: "Invalid or missing API key" }, 401));
    await expect(getJson("/api/mappings", { on401: "returnNull" })).resolves.toBeNull();
  });

  it("still throws other failures when 401 answers null", async () => {
    mockFetch(() => jsonResponse({ error: "Forbidden" }, 403));
    await expect(getJson("/api/mappings", { on401: "returnNull" })).rejects.toThrow("403: ");
  });
});

describe("describeError", () => {
  it("prefers the server's message, then the fallback, then the error's own message", () => {
    expect(describeError(new ApiError(400, "Bad Request", '{"error":"Nope"}'), "Login failed")).toBe("Nope");
    expect(describeError(new ApiError(500, "Internal Server Error", ""), "Login failed")).toBe("Login failed");
    expect(describeError(new Error("offline"))).toBe("offline");
  });
});
