/** OTP: live challenges and their threads (built once the OTP service is in this sandbox). */
export function OtpView() {
  return <p class="empty">The OTP service's challenges appear here once this sandbox has it.</p>;
}
