import { describe, expect, it } from "vitest";
import {
  hostNameOfHeader,
  httpOriginParts,
  isAllowedHostName,
  isLoopbackAddress,
  isLoopbackHostName,
  parseAllowedHosts,
  splitHostList,
} from "../../src/lib/host-names.js";
import { isAppError } from "../../src/lib/app-error.js";

describe("a Host header's name: case, trailing dot, port and IPv6 brackets do not change it", () => {
  it.each([
    ["localhost", "localhost"],
    ["LOCALHOST:4010", "localhost"],
    ["localhost.:4010", "localhost"],
    ["Sandbox.Test", "sandbox.test"],
    ["[::1]:4010", "::1"],
    ["[0:0:0:0:0:0:0:1]", "::1"],
    ["127.0.0.1:80", "127.0.0.1"],
    ["compose_service:4010", "compose_service"],
  ])("%s is %s", (header, name) => {
    expect(hostNameOfHeader(header)).toBe(name);
  });

  it.each([
    ["an empty value", ""],
    ["a port with no digits", "localhost:"],
    ["a bare IPv6 address", "::1"],
    ["an unclosed bracket", "[::1"],
    ["a zone id", "[fe80::1%25eth0]:80"],
    ["a space", "local host"],
    ["user info", "user@localhost"],
    ["a path", "localhost/x"],
    ["two trailing dots", "localhost.."],
  ])("%s is no name at all", (_what, header) => {
    expect(hostNameOfHeader(header)).toBeUndefined();
  });
});

describe("loopback names and addresses", () => {
  it.each(["localhost", "app.localhost", "a.b.localhost", "127.0.0.1", "127.255.3.4", "::1"])(
    "%s is loopback",
    (name) => {
      expect(isLoopbackHostName(name)).toBe(true);
    },
  );

  it.each([
    "localhost.evil.example",
    "evillocalhost",
    "127.0.0.1.nip.io",
    "127.1", // browsers send the dotted quad; this spelling is a name
    "0.0.0.0",
    "::",
    "::ffff:7f00:1",
    "128.0.0.1",
  ])("%s is not", (name) => {
    expect(isLoopbackHostName(name)).toBe(false);
  });

  it("a peer is loopback from 127.0.0.0/8, ::1 and IPv4-mapped 127.x (a dual-stack socket's view)", () => {
    for (const peer of ["127.0.0.1", "127.9.9.9", "::1", "::ffff:127.0.0.1"])
      expect(isLoopbackAddress(peer)).toBe(true);
    for (const peer of ["192.0.2.7", "::ffff:192.0.2.7", "fd00::2", "0.0.0.0", "", "localhost"])
      expect(isLoopbackAddress(peer)).toBe(false);
  });
});

describe("serialized origins", () => {
  it("http origins give their name and port, 80 when none is written", () => {
    expect(httpOriginParts("http://localhost:4010")).toEqual({ name: "localhost", port: 4010 });
    expect(httpOriginParts("http://LOCALHOST")).toEqual({ name: "localhost", port: 80 });
    expect(httpOriginParts("http://[::1]:4011")).toEqual({ name: "::1", port: 4011 });
  });

  it.each(["null", "https://localhost:4010", "http://localhost:4010/", "file://", "http://localhost:x", ""])(
    "%j is not an http origin",
    (origin) => {
      expect(httpOriginParts(origin)).toBeUndefined();
    },
  );
});

describe("--allowed-hosts entries", () => {
  it("exact names match case-insensitively; a leading dot matches the name and every name under it", () => {
    const allowed = parseAllowedHosts(["Sandbox.Test", ".example.test", "[fd00::2]", "192.0.2.2"], "allowedHosts");
    for (const name of ["sandbox.test", "example.test", "a.example.test", "a.b.example.test", "fd00::2", "192.0.2.2"])
      expect(isAllowedHostName(name, allowed), name).toBe(true);
    for (const name of ["a.sandbox.test", "badexample.test", "example.test.evil", "192.0.2.3"])
      expect(isAllowedHostName(name, allowed), name).toBe(false);
  });

  it.each([
    "http://sandbox.test",
    "sandbox.test:4010",
    "*.example.test",
    "*",
    "",
    "a b",
    ".192.0.2.2",
    "sandbox.test/x",
  ])("%j is refused with a message naming the option", (entry) => {
    let error: unknown;
    try {
      parseAllowedHosts([entry], "--allowed-hosts");
    } catch (caught) {
      error = caught;
    }
    expect(isAppError(error) && error.code).toBe("invalid_request");
    expect((error as Error).message).toMatch(/^--allowed-hosts: .* is not a host name; .*no scheme or port/);
  });

  it("a comma-separated value splits into trimmed names, empty entries left out", () => {
    expect(splitHostList(" a.test, .b.test,,")).toEqual(["a.test", ".b.test"]);
  });
});
