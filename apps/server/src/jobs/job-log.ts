/** Where background work reports: the app's logger (pino), handed to `Services.start` once the app exists. */
export interface JobLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}
