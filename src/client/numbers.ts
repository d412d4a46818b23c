import type { NumberResource } from "../contract/types.js";
import type { HttpClient } from "./http.js";

/** GET /v1/numbers. */
export function numbersClient(http: HttpClient) {
  return {
    /** The account's numbers. */
    list: async () => (await http.request<NumberResource[]>("messaging", "GET", "/v1/numbers")).data,
  };
}
