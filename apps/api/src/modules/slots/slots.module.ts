/** The slots module's public face: what the rest of the API may use of it. */
export {
  findLiveSlotsOfListedService,
  syncOrganizationSlots,
  syncServiceSlots,
  toSlot,
} from './slots.repository.js';
