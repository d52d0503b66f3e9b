"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.encodeEdge = encodeEdge;
exports.decodeEdge = decodeEdge;
const validate_1 = require("../validate");
const ports = { default: 0, programmatic: 1, launchOrder: 2 };
const types = { default: 0, programmatic: 1 };
function encodeEdge(edge, name = 'edge') {
    (0, validate_1.checkObject)(edge, name);
    return [(0, validate_1.checkEnum)(edge.fromPort ?? 'default', ports, `${name}.fromPort`), (0, validate_1.checkEnum)(edge.toPort ?? 'default', { default: 0 }, `${name}.toPort`),
        (0, validate_1.checkEnum)(edge.type ?? 'default', types, `${name}.type`)];
}
function decodeEdge([from, to, type]) {
    return {
        fromPort: (0, validate_1.nameOfValue)(ports, from) ?? 'default',
        toPort: to === 0 ? 'default' : 'default',
        type: (0, validate_1.nameOfValue)(types, type) ?? 'default',
    };
}
//# sourceMappingURL=edge.js.map