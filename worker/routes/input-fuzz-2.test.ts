/** Bad input on every route (test/input-fuzz.ts), second of three parts. */
import { describe } from "vitest";
import { describeInputFuzz } from "../test/input-fuzz";

describe("bad input on every route", () => describeInputFuzz(2, 3));
