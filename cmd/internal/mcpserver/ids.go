package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
)

// id_next is canon id next (issue 25, ADR-0043, ADR-0044): the next free
// id of a kind, over the working tree and every followed ref, minted as
// ids.scheme says; the same use case and the same text.

type (
	idNextIn struct {
		Kind      string `json:"kind"`
		Namespace string `json:"namespace,omitempty"`
	}
	idNextOut struct {
		usecase.NextID
		Fresh
	}
)

func (m *Server) addIDTool() {
	add(m, &mcp.Tool{Name: "id_next", OutputSchema: outSchema("id:string"), Description: "Next free id of a kind.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in idNextIn, out *idNextOut) (string, error) {
			id, err := usecase.Next(ctx, s, in.Kind, in.Namespace)
			if err != nil {
				return "", err
			}
			out.NextID = id
			return rendered(id), nil
		})
}
