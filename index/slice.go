package index

import (
	"context"
	"os"

	"github.com/canon-md/canon/index/internal/slice"
	"github.com/canon-md/canon/index/internal/sqlstore"
)

// A workset's database (docs/worksets.md) is an index holding some
// documents of the repository's, copied from it, plus the workset's own
// tables: its manifest, its members and how each was chosen, the reasons
// it went stale, the findings it promoted and its checkpoints. Both are
// the family index/internal/slice (ADR-0080); the workset package reads
// and writes them through Slice's methods.

// Slice is a workset's database: everything a Store reads, plus the
// workset's own records.
type Slice struct {
	*Store
	// Records is the workset's own tables (index/internal/slice):
	// sl.Copy, sl.EachMember, sl.Manifest and the rest are its methods.
	slice.Records
}

// OpenSlice opens (creating if needed) a workset's database. migrated
// says the index schema had to be created or migrated: the content tables
// are empty, whatever the workset's records say. A database holding
// anything canon does not create there (a trigger, a view, a table of its
// own) is refused before it is read: a ForeignSchemaError (ADR-0032).
func OpenSlice(ctx context.Context, path string) (sl *Slice, migrated bool, err error) {
	// SQLite follows a link to the database (and would turn whatever it
	// points at to WAL mode before the schema is read); it refuses links
	// in place of its -wal and -journal files itself (O_NOFOLLOW).
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, false, &ForeignSchemaError{Path: path, NotAFile: true}
	}
	st, migrated, err := open(ctx, path, sliceDriver, true)
	if err != nil {
		return nil, false, err
	}
	if _, err := st.h.DB.ExecContext(ctx, slice.DDL); err != nil {
		st.Close()
		return nil, false, err
	}
	return &Slice{Store: st, Records: slice.New(st.h)}, migrated, nil
}

// ContentTables lists the tables a full build recreates (everything but
// meta), children before docs: what a subset copy clears and fills.
func ContentTables() []string { return append([]string{}, sqlstore.ContentTables...) }

// The values of a workset's records (slice.SliceMember, ...).
type (
	SliceMember   = slice.SliceMember
	SliceStale    = slice.SliceStale
	SlicePromoted = slice.SlicePromoted
	SliceCopy     = slice.SliceCopy
	SubsetOptions = slice.SubsetOptions
)
