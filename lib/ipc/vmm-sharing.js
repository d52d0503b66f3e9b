"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.exportVmmMemory = exportVmmMemory;
exports.openVmmMemory = openVmmMemory;
const native_1 = require("../native");
const access_1 = require("../vmm/access");
const address_reservation_1 = require("../vmm/address-reservation");
const granularity_1 = require("../vmm/granularity");
const mapping_1 = require("../vmm/mapping");
const physical_allocation_1 = require("../vmm/physical-allocation");
const descriptor_1 = require("./descriptor");
const errors_1 = require("./errors");
const fabric_1 = require("./fabric");
/** @internal The VMM path's part of a descriptor for [offset, offset + bytes) of memory, and the descriptors that travel with it. */
function exportVmmMemory(memory, offset, bytes, handleType) {
    const all = memory.segments();
    const fds = [];
    try {
        // Only the allocations under the shared range travel.
        const used = [];
        let start = 0;
        let at = 0;
        for (const segment of all) {
            if (at + segment.bytes > offset && at < offset + bytes) {
                if (used.length === 0)
                    start = at;
                used.push(segment);
            }
            at += segment.bytes;
        }
        if (used.length > descriptor_1.maxDescriptorSegments) {
            throw new errors_1.SharingUnsupportedError('too-many-pieces', `the range spans ${used.length} physical allocations`, `Share at most ${descriptor_1.maxDescriptorSegments} at a time (a smaller range), or grow the buffer in larger steps`);
        }
        for (const segment of used) {
            if (!segment.allocation.properties().handleTypes.includes(handleType)) {
                throw new errors_1.SharingUnsupportedError('handle-type-not-requested', `the memory was not created to be exported as ${handleType}`, `Create it with handleTypes: ['${handleType}'] (Mapping.alloc(bytes, { handleTypes }), GrowableBuffer.create({ maxSize, handleTypes }) or PhysicalAllocation.create)`);
            }
        }
        if (handleType === 'fabric')
            (0, fabric_1.requireFabric)(memory.device);
        const segments = used.map((segment) => {
            const base = { allocationSize: segment.allocation.size, allocationOffset: segment.allocationOffset, bytes: segment.bytes };
            if (handleType === 'fabric')
                return { ...base, fabric: (0, descriptor_1.encodeBytes)(segment.allocation.exportFabric()) };
            fds.push(segment.allocation.exportFd());
            return base;
        });
        return { fields: { kind: 'vmm', handleType, segments, offset: offset - start }, fds };
    }
    catch (error) {
        for (const fd of fds)
            fd.dispose();
        throw error;
    }
    finally {
        for (const segment of all)
            segment.allocation.dispose();
    }
}
/**
 * @internal Opens a VMM descriptor on a device: imports each allocation, maps
 * them one after another into a new reservation with read-write access for the
 * device (all or nothing), and returns a view of the shared bytes.
 */
function openVmmMemory(descriptor, device, fds) {
    if (descriptor.handleType === 'fabric')
        (0, fabric_1.requireFabric)(device);
    const total = descriptor.segments.reduce((sum, s) => sum + s.bytes, 0);
    const reservation = address_reservation_1.AddressReservation.reserve(total, { device, alignment: (0, granularity_1.allocationGranularity)({ location: device }) });
    const allocations = [];
    try {
        descriptor.segments.forEach((s, i) => {
            allocations.push(physical_allocation_1.PhysicalAllocation.import(s.fabric !== undefined ? (0, descriptor_1.decodeBytes)(s.fabric) : fds[i], { bytes: s.allocationSize }));
        });
        const segments = descriptor.segments.map((s, i) => [allocations[i].native, s.allocationOffset, s.bytes]);
        const mapped = native_1.native.mapMemory(reservation.native, 0, segments, (0, access_1.encodeAccess)((0, mapping_1.defaultAccess)(device), 'access'));
        try {
            return native_1.native.memoryView(mapped, descriptor.offset, descriptor.size, 'vmm');
        }
        finally {
            mapped.dispose(); // the view holds the mapping
        }
    }
    finally {
        // The mapping holds what it maps; on failure these were the only references.
        for (const allocation of allocations)
            allocation.dispose();
        reservation.dispose();
    }
}
//# sourceMappingURL=vmm-sharing.js.map