/** The authorization matrix (test/authorization-matrix.ts), second of two parts. */
import { describe } from "vitest";
import { describeAuthorizationMatrix } from "../test/authorization-matrix";

describe("the authorization matrix", () => describeAuthorizationMatrix(2, 2));
