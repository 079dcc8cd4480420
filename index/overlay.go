package index

import "github.com/canon-md/canon/index/internal/overlay"

// The overlays' tables are the table family index/internal/overlay (ADR-0042,
// ADR-0080): Store embeds overlay.Overlays (Refs, RefDocs, ApplyRefs,
// Overlay, OverlayOfHere, HereEdges, DumpRefs, RefBlobs), and these are
// its values' names for the store's callers.
type (
	RefState   = overlay.RefState
	RefDoc     = overlay.RefDoc
	RefUpdate  = overlay.RefUpdate
	RefBlob    = overlay.RefBlob
	Trunk      = overlay.Trunk
	TrunkDoc   = overlay.TrunkDoc
	OverlayDoc = overlay.OverlayDoc
	HereDoc    = overlay.HereDoc
)

// Change kinds of a RefDoc (overlay.RefAdded, ...).
const (
	RefAdded   = overlay.RefAdded
	RefChanged = overlay.RefChanged
	RefDeleted = overlay.RefDeleted
	RefMoved   = overlay.RefMoved
	RefSame    = overlay.RefSame
)

// AssigneeFields are the fields that say who has an item, in the order
// they are read (overlay.AssigneeFields).
var AssigneeFields = overlay.AssigneeFields

// EdgesJSON is the stored form of a document's frontmatter edges
// (overlay.EdgesJSON).
func EdgesJSON(pairs [][2]string) string { return overlay.EdgesJSON(pairs) }

// RefLine and RefDocLine are DumpRefs's lines (overlay.RefLine).
func RefLine(r RefState) string { return overlay.RefLine(r) }

// RefDocLine: see RefLine.
func RefDocLine(d RefDoc) string { return overlay.RefDocLine(d) }
