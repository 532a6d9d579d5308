package gate

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/latgate/latgate/internal/clocktest"
)

// TestCheckHidesAKeyInTheModelList: a server whose list of models names
// one with the key after 66 bytes (across the 80-byte cut of a listed
// name) gets the unknown-model finding with none of the key's first
// characters: the cut is marked, and the piece before the mark hidden.
func TestCheckHidesAKeyInTheModelList(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/models") {
				fmt.Fprintf(w, `{"object":"list","data":[{"id":"gpt-4o"},{"id":"%s%s"}]}`, strings.Repeat("x", 66), checkKey)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"error":{"message":"no such model","code":"model_not_found"}}`)
		}))
		path := filepath.Join(t.TempDir(), "latgate.yaml")
		writeCheckSuite(t, path, "  - {name: e, base_url: "+srv.URL+"/v1, model: gpt-4o-mnii, api_key_env: CHECK_KEY}\n", 4)
		var out, errOut bytes.Buffer
		err := Check(context.Background(), Env{Stdout: &out, Stderr: &errOut, ProbeClient: srv.Client(), Getenv: checkEnv}, CheckOptions{Config: path})
		all := out.String() + errOut.String() + fmt.Sprint(err)
		if !strings.Contains(all, `it lists "gpt-4o", "xxxxxxxxxx`) {
			t.Fatalf("no unknown-model finding with the list:\n%s", all)
		}
		if strings.Contains(all, checkKey[:8]) {
			t.Errorf("the output holds the key's first characters:\n%s", all)
		}
	})
}
