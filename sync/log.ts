// The browser side's one logger. Messages the spec names ("Failed locale loading", "Failed to load
// custom icons", …) go through here so that they are easy to find and to silence in tests.
/* eslint-disable no-console */
export const log = {
  error: (message: string, detail?: unknown) => console.error(message, ...(detail === undefined ? [] : [detail])),
  warn: (message: string, detail?: unknown) => console.warn(message, ...(detail === undefined ? [] : [detail])),
  info: (message: string, detail?: unknown) => console.info(message, ...(detail === undefined ? [] : [detail])),
};
