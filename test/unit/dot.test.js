"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// DOT output: its exact form for a small graph, escaping, styles per kind,
// level ranks and argument checks.
const analysis_1 = require("../../lib/graph/analysis");
const dot_1 = require("../../lib/graph/dot");
describe('renderDot', () => {
    test('a small graph, statement by statement', () => {
        const dot = (0, dot_1.renderDot)({
            nodes: [
                { id: 0, kind: 'memcpy', label: 'upload x' },
                { id: 1, kind: 'kernel', label: 'saxpy', detail: 'grid 64×1×1, block 256' },
                { id: 2, kind: 'empty' },
            ],
            edges: [
                { from: 0, to: 1, label: 'RAW x' },
                { from: 1, to: 2, style: 'dashed' },
                { from: 0, to: 2, style: 'solid' },
            ],
        }, { name: 'pipeline', direction: 'LR' });
        expect(dot).toBe([
            'digraph "pipeline" {',
            '  graph [rankdir=LR, fontname="Helvetica"];',
            '  node [fontname="Helvetica", fontsize=11, style="filled", fillcolor="white", color="#495057"];',
            '  edge [fontname="Helvetica", fontsize=9, color="#495057"];',
            '  n0 [label="upload x\\nmemcpy", shape=box, fillcolor="#d1e7dd", style="filled,rounded"];',
            '  n1 [label="saxpy\\nkernel\\ngrid 64×1×1, block 256", shape=box, fillcolor="#cfe2ff"];',
            '  n2 [label="empty", shape=ellipse, fillcolor="white", style="dashed"];',
            '  n0 -> n1 [label="RAW x"];',
            '  n1 -> n2 [style=dashed];',
            '  n0 -> n2;',
            '}',
            '',
        ].join('\n'));
    });
    test('labels are escaped: quotes, backslashes, line breaks, control characters', () => {
        const dot = (0, dot_1.renderDot)({
            nodes: [{ id: 7, kind: 'host', label: 'say "hi"\\N\nnext\r\nline\ttab' }],
            edges: [{ from: 7, to: 7, label: '} ]; n9 [label="x' }],
        }, { name: 'a "quoted" name' });
        expect(dot).toContain('digraph "a \\"quoted\\" name" {');
        expect(dot).toContain('  n7 [label="say \\"hi\\"\\\\N\\nnext\\nline tab\\nhost", shape=hexagon');
        expect(dot).toContain('  n7 -> n7 [label="} ]; n9 [label=\\"x"];');
        // Every double quote inside a string is escaped: the quotes left pair up.
        for (const line of dot.split('\n'))
            expect((line.replace(/\\\\/g, '').replace(/\\"/g, '').match(/"/g) ?? []).length % 2).toBe(0);
    });
    test('every kind has its own look', () => {
        const kinds = [
            'kernel', 'memcpy', 'memset', 'host', 'child', 'empty', 'event-wait', 'event-record',
            'ext-semaphore-signal', 'ext-semaphore-wait', 'mem-alloc', 'mem-free', 'batch-mem-op', 'conditional',
        ];
        const nodes = kinds.map((kind, id) => ({ id, kind }));
        const lines = (0, dot_1.renderDot)({ nodes, edges: [] }).split('\n').filter((line) => /^ {2}n\d+ \[/.test(line));
        expect(lines).toHaveLength(kinds.length);
        const looks = lines.map((line) => line.replace(/label="[^"]*", /, ''));
        expect(new Set(looks).size).toBe(kinds.length);
        expect(lines[kinds.indexOf('mem-alloc')]).toContain('shape=cylinder');
        expect(lines[kinds.indexOf('conditional')]).toContain('shape=diamond');
    });
    test('levels put the nodes that may run together on one rank; ids need not be dense', () => {
        const nodes = [10, 20, 30, 40].map((id) => ({ id, kind: 'kernel' }));
        const edges = [{ from: 10, to: 20 }, { from: 10, to: 30 }, { from: 20, to: 40 }, { from: 30, to: 40 }];
        const dot = (0, dot_1.renderDot)({ nodes, edges }, { levels: true });
        expect(dot).toContain('  { rank=same; n20; n30; }\n}');
        expect(dot.match(/rank=same/g)).toHaveLength(1);
        expect((0, dot_1.renderDot)({ nodes, edges })).not.toContain('rank=same');
    });
    test('a cyclic graph renders, except with levels', () => {
        const nodes = [{ id: 0, kind: 'kernel' }, { id: 1, kind: 'kernel' }];
        const edges = [{ from: 0, to: 1 }, { from: 1, to: 0 }];
        expect((0, dot_1.renderDot)({ nodes, edges })).toContain('n1 -> n0;');
        expect(() => (0, dot_1.renderDot)({ nodes, edges }, { levels: true })).toThrow(analysis_1.GraphCycleError);
    });
    test('bad graphs and options are refused with the parameter named', () => {
        const kernel = (id) => ({ id, kind: 'kernel' });
        expect(() => (0, dot_1.renderDot)(null)).toThrow(/graph must be an object/);
        expect(() => (0, dot_1.renderDot)({ nodes: {}, edges: [] })).toThrow(/graph.nodes must be an array/);
        expect(() => (0, dot_1.renderDot)({ nodes: [kernel(0), kernel(0)], edges: [] })).toThrow(new RangeError('graph.nodes[1].id 0 is already the id of graph.nodes[0]'));
        expect(() => (0, dot_1.renderDot)({ nodes: [kernel(-1)], edges: [] })).toThrow(/graph.nodes\[0\].id must be between 0/);
        expect(() => (0, dot_1.renderDot)({ nodes: [{ id: 0, kind: 'toString' }], edges: [] })).toThrow(/graph.nodes\[0\].kind must be one of kernel, memcpy/);
        expect(() => (0, dot_1.renderDot)({ nodes: [{ id: 0, kind: 'kernel', label: 5 }], edges: [] })).toThrow(/graph.nodes\[0\].label must be a string/);
        expect(() => (0, dot_1.renderDot)({ nodes: [kernel(0)], edges: [{ from: 0, to: 3 }] })).toThrow(new RangeError('graph.edges[0].to 3 is not the id of a node'));
        expect(() => (0, dot_1.renderDot)({ nodes: [kernel(0)], edges: [{ from: 0, to: 0, style: 'wavy' }] })).toThrow(/graph.edges\[0\].style must be one of/);
        expect(() => (0, dot_1.renderDot)({ nodes: [], edges: [] }, { direction: 'RL' })).toThrow(/options.direction/);
        expect(() => (0, dot_1.renderDot)({ nodes: [], edges: [] }, { levels: 'yes' })).toThrow(/options.levels must be a boolean/);
    });
});
//# sourceMappingURL=dot.test.js.map