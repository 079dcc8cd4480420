package mcpserver

import (
	"context"
	"errors"
	"io/fs"
	"net/url"
	"reflect"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/scan"
	"github.com/canon-md/canon/workset"
)

// addResources serves the canonical Markdown of a document and a
// workset's plan and notes.
func (m *Server) addResources() {
	// {+key}: a path's slashes are part of it (canon://doc/docs/a.md).
	m.server.AddResourceTemplate(&mcp.ResourceTemplate{Name: "doc", URITemplate: "canon://doc/{+key}", MIMEType: "text/markdown",
		Description: "A document's Markdown, by node key, id or path (slashes as they are, or %2F)."},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			uri := req.Params.URI
			key := strings.TrimPrefix(uri, "canon://doc/")
			if k, err := url.PathUnescape(key); err == nil {
				key = k
			}
			var data []byte
			_, err := m.call(ctx, shared, func(ctx context.Context, s *gitsync.Session) error {
				doc, err := s.Store.FindOne(ctx, key)
				var amb *index.AmbiguousError
				switch {
				case errors.As(err, &amb):
					return err // which documents, and how to name one
				case err != nil:
					return mcp.ResourceNotFoundError(uri)
				}
				data, err = scan.ReadDocument(s.Repo.Root, s.Cfg, doc.Path)
				return err
			})
			if err != nil {
				return nil, err
			}
			return markdown(uri, data), nil
		})
	for _, f := range []string{"plan", "notes"} {
		m.server.AddResourceTemplate(&mcp.ResourceTemplate{Name: "workset-" + f, URITemplate: "canon://workset/{name}/" + f, MIMEType: "text/markdown",
			Description: "A workset's " + f + ".md."},
			func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				uri := req.Params.URI
				name := strings.TrimSuffix(strings.TrimPrefix(uri, "canon://workset/"), "/"+f)
				data, err := workset.ReadFile(ctx, &workset.Env{Root: m.s.Repo.Root, Tracked: m.s.Repo.TrackedInWorksetDir}, name, f+".md")
				switch {
				case errors.Is(err, fs.ErrNotExist) || errors.Is(err, workset.ErrBadName):
					return nil, mcp.ResourceNotFoundError(uri)
				case err != nil:
					return nil, err // a link out, a device, a file over the limit: said plainly
				}
				return markdown(uri, data), nil
			})
	}
}

func markdown(uri string, data []byte) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: string(data)}}}
}

// addPrompts makes a prompt of each query template: its pack, ready to
// read, with the seeds or workset given as arguments.
func (m *Server) addPrompts() error {
	lib, err := graph.RepoLibrary(m.s.Repo.Root)
	if err != nil {
		return err
	}
	for _, name := range lib.Names() {
		t, err := lib.Resolve(name)
		if err != nil {
			continue // a broken template of the repository's: canon query validate says why
		}
		m.server.AddPrompt(&mcp.Prompt{Name: name, Description: strings.TrimSpace(t.Description),
			Arguments: []*mcp.PromptArgument{
				{Name: "seed", Description: "a document to start from instead of the template's anchors"},
				{Name: "workset", Description: "the workset an anchor workset: $workset means"},
			}},
			func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				for k, v := range req.Params.Arguments {
					if err := boundField(k, reflect.ValueOf(v)); err != nil {
						return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
					}
				}
				in := queryIn{Template: name, Workset: req.Params.Arguments["workset"]}
				if sd := req.Params.Arguments["seed"]; sd != "" {
					in.Seeds = []string{sd}
				}
				var md string
				f, err := m.call(ctx, shared, func(ctx context.Context, s *gitsync.Session) error {
					p, err := runTemplate(ctx, s, in)
					if err == nil {
						md = rendered(p)
					}
					return err
				})
				if err != nil {
					// What a prompt cannot answer is its arguments' doing (no
					// workset, a seed that names nothing): JSON-RPC's invalid
					// params, not the SDK's code 0.
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: explain(err).Error()}
				}
				text := strings.TrimRight(md, "\n") + "\n(" + f.text() + ")"
				return &mcp.GetPromptResult{Description: t.Description, Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
			})
	}
	return nil
}
