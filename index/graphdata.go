package index

// Helpers for the packages that read the index's tables directly (graph,
// workset): they build the same DocRef every other output shows.

// DocRefColumns selects, from docs aliased d, the columns ScanDocRef reads.
const DocRefColumns = docRefCols

// MakeDocRef builds a DocRef from docs columns, with the display-id and
// title fallbacks (the file stem) that every output uses.
func MakeDocRef(key, ident, path, kind, title, state string) DocRef {
	return docRef(key, ident, path, kind, title, state)
}

// ScanDocRef reads the DocRefColumns of a row, then extra columns into extra.
func ScanDocRef(sc interface{ Scan(...any) error }, extra ...any) (DocRef, error) {
	return scanDocRef(sc, extra...)
}
