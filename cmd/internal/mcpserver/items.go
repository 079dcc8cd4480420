package mcpserver

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
)

// The write path of one item (issue 47): item_new, item_set, item_claim
// and item_log are canon new, set, claim and log (item_log with done, canon done
// --log), the same use cases (usecase.EditItem, Claim, Done) and the same
// refusals: a state the
// repository does not use, a field canon does not write, an edit canon
// check would report.

type (
	itemSetIn struct {
		Item   string   `json:"item" jsonschema:"id, key or path"`
		Set    []string `json:"set,omitempty" jsonschema:"as field=value"`
		Add    []string `json:"add,omitempty"`
		Remove []string `json:"remove,omitempty"`
		DryRun bool     `json:"dry_run,omitempty"`
		Commit bool     `json:"commit,omitempty"`
	}
	itemClaimIn struct {
		Item   string `json:"item"`
		As     string `json:"as,omitempty"`
		DryRun bool   `json:"dry_run,omitempty"`
		Commit bool   `json:"commit,omitempty"`
	}
	itemLogIn struct {
		Item   string `json:"item"`
		Text   string `json:"text"`
		As     string `json:"as,omitempty"`
		Done   bool   `json:"done,omitempty" jsonschema:"and close the item"`
		DryRun bool   `json:"dry_run,omitempty"`
		Commit bool   `json:"commit,omitempty"`
	}
	itemOut struct {
		*usecase.ItemEdited
		Fresh
	}
	itemNewIn struct {
		Kind   string   `json:"kind"`
		Title  string   `json:"title"`
		Parent string   `json:"parent,omitempty"`
		Set    []string `json:"set,omitempty" jsonschema:"as field=value"`
		Body   string   `json:"body,omitempty"`
		DryRun bool     `json:"dry_run,omitempty"`
		Commit bool     `json:"commit,omitempty"`
	}
	itemNewOut struct {
		*usecase.ItemCreated
		Fresh
	}
)

func (m *Server) addItemTools() {
	add(m, &mcp.Tool{Name: "item_new", OutputSchema: outSchema("item:object", "written:array"), Description: "Create an item as the repo does.", Annotations: writing},
		func(ctx context.Context, s *gitsync.Session, in itemNewIn, out *itemNewOut) (string, error) {
			a := usecase.NewArgs{Kind: in.Kind, Title: in.Title, Parent: in.Parent, Body: in.Body, DryRun: in.DryRun, Commit: in.Commit}
			var err error
			if a.Set, err = fieldValues(in.Set); err != nil {
				return "", err
			}
			res, err := usecase.NewItem(ctx, s, a)
			if msg, ok := usecase.Refusal(err); ok {
				return "", errors.New(msg)
			}
			if err != nil {
				return "", err
			}
			out.ItemCreated = res
			return rendered(res), nil
		})
	add(m, &mcp.Tool{Name: "item_set", OutputSchema: outSchema("changes:array", "written:array"), Description: "Change an item's fields (add, remove: list items).", Annotations: writing},
		func(ctx context.Context, s *gitsync.Session, in itemSetIn, out *itemOut) (string, error) {
			a := usecase.ItemArgs{Ref: in.Item, DryRun: in.DryRun, Commit: in.Commit, Command: "canon set"}
			var err error
			if a.Set, err = fieldValues(in.Set); err != nil {
				return "", err
			}
			if a.Add, err = fieldValues(in.Add); err != nil {
				return "", err
			}
			if a.Remove, err = fieldValues(in.Remove); err != nil {
				return "", err
			}
			return itemCall(out, func() (*usecase.ItemEdited, error) { return usecase.EditItem(ctx, s, a) })
		})
	add(m, &mcp.Tool{Name: "item_claim", OutputSchema: outSchema("changes:array", "written:array"), Description: "Take an item: assignee as (else CANON_AGENT, git user.name), in-progress state.", Annotations: writing},
		func(ctx context.Context, s *gitsync.Session, in itemClaimIn, out *itemOut) (string, error) {
			return itemCall(out, func() (*usecase.ItemEdited, error) {
				return usecase.Claim(ctx, s, in.Item, usecase.Claimant(ctx, s, in.As), usecase.ItemArgs{DryRun: in.DryRun, Commit: in.Commit})
			})
		})
	add(m, &mcp.Tool{Name: "item_log", OutputSchema: outSchema("logged:string", "written:array"), Description: "Append a dated worklog line (done: and close).", Annotations: writing},
		func(ctx context.Context, s *gitsync.Session, in itemLogIn, out *itemOut) (string, error) {
			a := usecase.ItemArgs{Log: in.Text, Agent: in.As, DryRun: in.DryRun, Commit: in.Commit}
			if in.Done {
				return itemCall(out, func() (*usecase.ItemEdited, error) { return usecase.Done(ctx, s, in.Item, a) })
			}
			a.Ref, a.Command = in.Item, "canon log"
			return itemCall(out, func() (*usecase.ItemEdited, error) { return usecase.EditItem(ctx, s, a) })
		})
}

// itemCall makes one item edit and renders its answer.
func itemCall(out *itemOut, call func() (*usecase.ItemEdited, error)) (string, error) {
	res, err := call()
	if msg, ok := usecase.Refusal(err); ok {
		return "", errors.New(msg)
	}
	if err != nil {
		return "", err
	}
	out.ItemEdited = res
	return rendered(res), nil
}

func fieldValues(args []string) ([]usecase.FieldValue, error) {
	out := make([]usecase.FieldValue, 0, len(args))
	for _, a := range args {
		fv, err := usecase.ParseFieldValue(a)
		if err != nil {
			return nil, err
		}
		out = append(out, fv)
	}
	return out, nil
}
