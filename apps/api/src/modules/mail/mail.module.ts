/** The mail module's public face: what the rest of the API may use of it. */
export { SMTP_STEP_TIMEOUT_MS, smtpSender } from './mail-transport.js';
