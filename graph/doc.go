// Package graph reads the index as a graph of documents and edges: bounded
// neighbour expansion, shortest paths, whole-graph statistics, exports,
// context packs, the ready/blocked view of open work and query templates.
//
// It reads the index through its typed methods and writes no SQL: the
// index loads (documents, links, sections, matches), and the algorithms
// run over what it loaded. Ready/blocked (splitWork), statistics
// (statsOf) and expansion (breadthFirst, reading a frontier at a time
// through a small interface) need no database, so table tests drive them
// from memory. It knows nothing of git, hooks or the CLI. Nodes are named
// by their canonical node key (docs.key); row ids (index.DocID) are used
// inside one call to join faster and never leave it.
//
// Every query that follows edges starts from its seeds and reads the links
// of the current frontier only, a batch at a time; nothing here scans the
// whole link table except the commands that are about the whole graph
// (stats, export without a root, ready/blocked).
//
// Every output is deterministic: the same index content and the same
// arguments give the same result in the same order, whatever order the
// index was built in, because ties are broken by node keys and source
// positions, never by row ids.
//
// On the ladder cmd → usecase → hooks → gitsync, workset → graph →
// index, it sits under workset (which selects through it), usecase and
// the front ends, above index.
package graph
