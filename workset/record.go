package workset

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/canon-md/canon/index/edit"
)

// A promote's findings are recorded in its workset once the files are
// written, in the same journaled step (ADR-0058): they are its part of the
// write's record, which the edit engine hands back to recordPromoted, for
// the promote that wrote the files or for the command that finishes a
// promote killed midway.

// promotedPart is the name of a promote's part of a write's record.
const promotedPart = "promoted"

type promotedRecord struct {
	Workset    string      `json:"workset"`
	Promotions []Promotion `json:"promotions"`
}

// Records are the parts of a write's record this package makes: a
// promote's findings, recorded in its workset. Whoever finishes the writes
// of killed commands (edit.Finish) hands them over.
func Records(root string) edit.Recorders {
	return edit.Recorders{promotedPart: recordPromoted(root)}
}

// recordPromoted records a promote's findings in its workset: run twice,
// it records them once.
func recordPromoted(root string) edit.Recorder {
	return func(ctx context.Context, data json.RawMessage) error {
		var r promotedRecord
		if err := edit.StrictJSON(data, &r); err != nil {
			return fmt.Errorf("its record does not decode: %w", err)
		}
		if len(r.Promotions) == 0 {
			return nil
		}
		if err := RecordPromoted(ctx, root, r.Workset, r.Promotions); err != nil {
			return fmt.Errorf("record the promoted findings in workset %s: %w", r.Workset, err)
		}
		return nil
	}
}
