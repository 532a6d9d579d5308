package apis_test

import (
	"slices"
	"testing"

	"github.com/latgate/latgate/apis"
	_ "github.com/latgate/latgate/probe" // registers the APIs
)

// TestRegistry: the APIs in their documented order, one default, looked
// up by name ("" is the default), and the registry's own mistakes refused
// without changing it.
func TestRegistry(t *testing.T) {
	names := apis.Names()
	if len(names) < 2 || names[0] != apis.Default().Name {
		t.Fatalf("names %v, default %q: the default API comes first", names, apis.Default().Name)
	}
	all := apis.All()
	if !slices.IsSortedFunc(all, func(a, b apis.Spec) int { return a.Order - b.Order }) {
		t.Errorf("All is not in Order: %v", names)
	}
	for _, s := range all {
		got, ok := apis.Lookup(s.Name)
		if !ok || got.Name != s.Name {
			t.Errorf("Lookup(%q) = %q, %v", s.Name, got.Name, ok)
		}
		if s.Address.Key != apis.BaseURL && s.Address.Key != apis.URL {
			t.Errorf("api %s: address key %q", s.Name, s.Address.Key)
		}
		if s.Address.Key == apis.BaseURL && s.Address.Default == "" && s.Address.Example == "" {
			t.Errorf("api %s: a required base_url needs an example for its error", s.Name)
		}
		if (s.Auth.Header == "") != s.NoKey {
			t.Errorf("api %s: auth header %q, sends no key %v: an API sends its key in a header, or no key at all", s.Name, s.Auth.Header, s.NoKey)
		}
	}
	if d, ok := apis.Lookup(""); !ok || !d.Default {
		t.Errorf(`Lookup("") = %q, %v; want the default`, d.Name, ok)
	}
	if _, ok := apis.Lookup("not-an-api"); ok {
		t.Error("Lookup of an unknown name succeeded")
	}
	for name, s := range map[string]apis.Spec{"no name": {}, "twice": {Name: names[0]}, "second default": {Name: "zz-test", Default: true}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Register did not panic", name)
				}
			}()
			apis.Register(s)
		}()
	}
	if got := apis.Names(); !slices.Equal(got, names) {
		t.Errorf("a refused Register changed the registry: %v", got)
	}
}

func TestAddressAndAuth(t *testing.T) {
	t.Parallel()
	web, socket := apis.Address{}, apis.Address{Schemes: []string{"wss", "ws"}}
	if !web.Accepts("https") || !web.Accepts("http") || web.Accepts("ws") || !socket.Accepts("ws") || socket.Accepts("https") {
		t.Error("Accepts")
	}
	if v := (apis.Auth{Header: "Authorization", Scheme: "Bearer"}).Value("k"); v != "Bearer k" {
		t.Errorf("Bearer: %q", v)
	}
	if v := (apis.Auth{Header: "x-api-key"}).Value("k"); v != "k" {
		t.Errorf("x-api-key: %q", v)
	}
}
