/** Moved to the contract, so server messages name zones the same way. */
export { utcOffsetLabel, zoneCity, zoneLabel } from '@qless/contract/core';
