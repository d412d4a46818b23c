import type {
  ChallengeResource,
  ChallengeTextInput,
  CreatedChallenge,
  OtpChallengeView,
  OtpFaults,
  OtpText,
  OtpTextInput,
  OtpTextResult,
  Page,
} from "../contract/types.js";
import type { HttpClient } from "./http.js";
import { pageQuery, type OtpTextListOptions } from "./list-options.js";

const at = (id: string) => `/v1/challenges/${encodeURIComponent(id)}`;

/** The OTP service (spec 4.6, on the OTP host) and its control API: the user's texts, their threads, the outage. */
export function otpClient(http: HttpClient) {
  return {
    /** POST /v1/challenges: a pending challenge with its code, the number to text and the links. */
    create: async (phone: string) =>
      (await http.request<CreatedChallenge>("otp", "POST", "/v1/challenges", { body: { phone } })).data,
    /** GET /v1/challenges/:id (poll it every couple of seconds). */
    get: async (id: string) => (await http.request<ChallengeResource>("otp", "GET", at(id))).data,
    /** POST /v1/challenges/:id/consume: once, after `verified`; sign-in is complete here. */
    consume: async (id: string) => (await http.request<ChallengeResource>("otp", "POST", `${at(id)}/consume`)).data,
    /**
     * The challenge's user texts the OTP number: by default the right code from the challenge's
     * phone; `wrong`, another `code`, any `text`, `from` another phone, a `channel`, or in a group.
     */
    text: async (id: string, input: ChallengeTextInput = {}) =>
      (
        await http.request<OtpTextResult>("otp", "POST", `/sandbox/v1/otp/challenges/${encodeURIComponent(id)}/texts`, {
          body: input,
        })
      ).data,
    /** The account's challenges, newest first, each with its status now, its code and its wrong texts. */
    challenges: async (query: { limit?: number } = {}) =>
      (await http.request<OtpChallengeView[]>("otp", "GET", "/sandbox/v1/otp/challenges", { query: { ...query } }))
        .data,
    /** Any phone texts an OTP number. */
    sendText: async (input: OtpTextInput) =>
      (await http.request<OtpTextResult>("otp", "POST", "/sandbox/v1/otp/texts", { body: input })).data,
    /** The OTP numbers' threads with the phones this account challenged: texts and replies, newest first. */
    async texts(options: OtpTextListOptions = {}): Promise<Page<OtpText>> {
      const response = await http.request<OtpText[]>("otp", "GET", "/sandbox/v1/otp/texts", {
        query: { ...pageQuery(options), phone: options.phone },
      });
      return { data: response.data, hasMore: response.hasMore ?? false };
    },
    /** Switches the simulated outage on (every OTP `/v1` path answers 503), or off. */
    fault: async (fault: "unavailable", options: { off?: boolean } = {}) =>
      (await http.request<OtpFaults>("otp", "POST", "/sandbox/v1/otp/fault", { body: { fault, ...options } })).data,
    /** The OTP host's simulated faults. */
    faults: async () => (await http.request<OtpFaults>("otp", "GET", "/sandbox/v1/otp/fault")).data,
  };
}
