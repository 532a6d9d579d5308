package suite

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/latgate/latgate/apis"
	"github.com/latgate/latgate/vocab"
)

// docs/schema/latgate.schema.json is written by hand for editors; these
// tests keep it in step with the parser: the same keys at every level, and
// the same verdict on the example suites and on typical mistakes.

const schemaPath = "../docs/schema/latgate.schema.json"

func loadSchema(t *testing.T) map[string]any {
	t.Helper()
	b, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v", schemaPath, err)
	}
	return s
}

func propKeys(s map[string]any) []string {
	props, _ := s["properties"].(map[string]any)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sorted[S ~string](list []S) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = string(s)
	}
	sort.Strings(out)
	return out
}

// objectBranch returns the object-typed branch of a oneOf/anyOf schema.
func objectBranch(s map[string]any) map[string]any {
	for _, k := range []string{"oneOf", "anyOf"} {
		list, _ := s[k].([]any)
		for _, b := range list {
			if bm, ok := b.(map[string]any); ok && bm["type"] == "object" {
				return bm
			}
		}
	}
	return nil
}

// checkKeys compares the keys a raw type accepts with the schema's, level
// by level.
func checkKeys(t *testing.T, where string, typ reflect.Type, s map[string]any) {
	t.Helper()
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if reflect.PointerTo(typ).Implements(shaperType) {
		typ = reflect.New(typ).Interface().(shaper).shape(&yaml.Node{Kind: yaml.MappingNode})
		if typ.Kind() != reflect.Struct {
			return // a value or a list of values (metrics_url), never a mapping
		}
		if s = objectBranch(s); s == nil {
			t.Errorf("%s: the parser accepts a mapping here, the schema does not", where)
			return
		}
	}
	switch typ.Kind() {
	case reflect.Struct:
		if len(yamlKeys(typ)) == 0 {
			return // a single value (scalar)
		}
		if reflect.PointerTo(typ).Implements(freeFormType) {
			return // checked by name below (budgets, goodput) or free (body)
		}
		want, got := sorted(yamlKeys(typ)), propKeys(s)
		if !slices.Equal(want, got) {
			t.Errorf("%s: parser keys %v, schema keys %v", where, want, got)
		}
		if s["additionalProperties"] != false {
			t.Errorf("%s: the schema must reject unknown keys (additionalProperties: false) as the parser does", where)
		}
		props, _ := s["properties"].(map[string]any)
		for i := range typ.NumField() {
			f := typ.Field(i)
			if name := yamlName(f); name != "" {
				if sub, ok := props[name].(map[string]any); ok {
					checkKeys(t, where+"."+name, f.Type, sub)
				}
			}
		}
	case reflect.Slice:
		if items, ok := s["items"].(map[string]any); ok {
			checkKeys(t, where+"[]", typ.Elem(), items)
		} else if typ.Elem().Kind() == reflect.Struct {
			t.Errorf("%s: the schema has no items", where)
		}
	case reflect.Map:
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			checkKeys(t, where+".*", typ.Elem(), ap)
		} else {
			t.Errorf("%s: the parser accepts any key here, the schema does not say what it holds", where)
		}
	}
}

func TestSchemaKeysMatchParser(t *testing.T) {
	t.Parallel()
	s := loadSchema(t)
	checkKeys(t, "latgate.yaml", reflect.TypeFor[rawConfig](), s)
	props := s["properties"].(map[string]any)

	// Budgets and goodput are keyed by metric name: the vocabulary's.
	budgets := props["budgets"].(map[string]any)
	if got, want := propKeys(budgets), sorted(budgetMetricNames()); !slices.Equal(got, want) {
		t.Errorf("budgets: schema metrics %v, parser metrics %v", got, want)
	}
	for _, m := range vocab.Latencies {
		if got := propKeys(budgets["properties"].(map[string]any)[string(m)].(map[string]any)); !slices.Equal(got, sorted(stats)) {
			t.Errorf("budgets.%s: schema statistics %v, parser %v", m, got, stats)
		}
	}
	for m, r := range budgetRates {
		if got := propKeys(budgets["properties"].(map[string]any)[string(m)].(map[string]any)); !slices.Equal(got, []string{string(r.stat)}) {
			t.Errorf("budgets.%s: schema statistics %v, parser %s", m, got, r.stat)
		}
	}
	if got := propKeys(props["goodput"].(map[string]any)); !slices.Equal(got, sorted(vocab.Latencies)) {
		t.Errorf("goodput: schema metrics %v, parser %v", got, vocab.Latencies)
	}

	// Enumerations.
	ep := props["endpoints"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)
	if def, _ := ep["api"].(map[string]any)["default"].(string); def != apis.Default().Name {
		t.Errorf("api: schema default %q, registry %q", def, apis.Default().Name)
	}
	if got := enumOf(ep["stream"].(map[string]any)["properties"].(map[string]any)["format"]); !slices.Equal(sorted(got), sorted(streamFormats)) {
		t.Errorf("stream.format: schema %v, parser %v", got, streamFormats)
	}
	for _, spec := range apis.All() {
		for _, f := range spec.Keys {
			if _, ok := ep[f]; !ok {
				t.Errorf("api %s: field %s missing from the schema", spec.Name, f)
			}
		}
	}
}

var update = flag.Bool("update", false, "write the registry's APIs into the suite's schema")

// apiEnumRE is the list of an endpoint's APIs in the schema.
var apiEnumRE = regexp.MustCompile(`("api": \{\n\s*"enum": \[)([^\]]*)(\])`)

// TestSchemaAPIEnum: the schema's list of APIs (what an editor offers for
// api:) is the registry's, in its order; -update writes it there, as a
// golden file is (an API's keys stay the schema's own, which
// TestSchemaKeysPerAPI checks).
func TestSchemaAPIEnum(t *testing.T) {
	b, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	m := apiEnumRE.FindSubmatchIndex(b)
	if m == nil {
		t.Fatalf("%s: no enum of the endpoint's api", schemaPath)
	}
	indent := "\n" + strings.Repeat(" ", 14)
	var items []string
	for _, n := range apis.Names() {
		items = append(items, indent+strconv.Quote(n))
	}
	want := strings.Join(items, ",") + "\n" + strings.Repeat(" ", 12)
	if got := string(b[m[4]:m[5]]); got == want {
		return
	} else if !*update {
		t.Fatalf("%s: api's enum is [%s], the registry's APIs are %v: run go test ./suite -run TestSchemaAPIEnum -update", schemaPath,
			strings.Join(strings.Fields(got), " "), apis.Names())
	}
	out := slices.Concat(b[:m[4]], []byte(want), b[m[5]:])
	if err := os.WriteFile(schemaPath, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSchemaKeysPerAPI: for every registered API, the schema accepts an
// endpoint with each key the API takes (and those it needs), and refuses
// it with any other API's key, as the parser does.
func TestSchemaKeysPerAPI(t *testing.T) {
	t.Parallel()
	s := loadSchema(t)
	values := map[string]string{apis.BaseURL: "http://x/api", apis.URL: "http://x/a", "deployment": "d", "api_version": "v",
		"method": "POST", "body": "{messages: \"{{messages}}\"}", "stream": "{format: sse, text: /t}", "audio": "true",
		"browser": "{input: textarea, submit: button, output: .answer}"}
	opt := Options{ReadFile: func(string) ([]byte, error) { return []byte("x"), nil }, Getenv: func(string) string { return "v" }}
	endpoint := func(spec apis.Spec, keys []string) string {
		src := fmt.Sprintf("endpoints:\n  - {api: %s, model: m", spec.Name)
		for _, k := range keys {
			if spec.Address.Key == apis.BaseURL && k == apis.BaseURL && spec.Address.Schemes != nil {
				src += ", base_url: ws://x/v1"
				continue
			}
			src += ", " + k + ": " + values[k]
		}
		return src + "}\n" + scen
	}
	for _, spec := range apis.All() {
		t.Run(spec.Name, func(t *testing.T) {
			src := endpoint(spec, spec.Keys)
			if _, err := Parse("all keys", []byte(src), opt); err != nil {
				t.Fatalf("the parser rejects every key of the api: %v\n%s", err, src)
			}
			if err := validate(s, yamlValue(t, src), "latgate.yaml"); err != nil {
				t.Errorf("the schema rejects every key of api %s: %v\n%s", spec.Name, err, src)
			}
			for _, k := range optionalKeys {
				if slices.Contains(spec.Keys, k) {
					continue
				}
				src := endpoint(spec, append(slices.Clone(spec.Keys), k))
				if _, err := Parse("other key", []byte(src), opt); err == nil {
					t.Errorf("the parser accepts %s on api %s", k, spec.Name)
				}
				if err := validate(s, yamlValue(t, src), "latgate.yaml"); err == nil {
					t.Errorf("the schema accepts %s on api %s, which the parser refuses", k, spec.Name)
				}
			}
		})
	}
}

func enumOf(v any) []string {
	m, _ := v.(map[string]any)
	list, _ := m["enum"].([]any)
	var out []string
	for _, x := range list {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// validate is a small JSON Schema (2020-12) validator for the keywords the
// latgate schema uses; it returns the first violation.
func validate(s map[string]any, v any, at string) error {
	if c, ok := s["const"]; ok && !jsonEqual(c, v) {
		return fmt.Errorf("%s: want %v, got %v", at, c, v)
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(x any) bool { return jsonEqual(x, v) }) {
		return fmt.Errorf("%s: %v is not one of %v", at, v, e)
	}
	if ty, ok := s["type"].(string); ok && !hasType(v, ty) {
		return fmt.Errorf("%s: want %s, got %T %v", at, ty, v, v)
	}
	if p, ok := s["pattern"].(string); ok {
		if str, isStr := v.(string); isStr && !regexp.MustCompile(p).MatchString(str) {
			return fmt.Errorf("%s: %q does not match %s", at, str, p)
		}
	}
	if f, ok := toFloat(v); ok {
		if m, has := s["minimum"].(float64); has && f < m {
			return fmt.Errorf("%s: %v below minimum %v", at, f, m)
		}
		if m, has := s["maximum"].(float64); has && f > m {
			return fmt.Errorf("%s: %v above maximum %v", at, f, m)
		}
		if m, has := s["exclusiveMinimum"].(float64); has && f <= m {
			return fmt.Errorf("%s: %v not above %v", at, f, m)
		}
		if m, has := s["exclusiveMaximum"].(float64); has && f >= m {
			return fmt.Errorf("%s: %v not below %v", at, f, m)
		}
	}
	if obj, ok := v.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		for _, r := range asList(s["required"]) {
			if _, has := obj[r.(string)]; !has {
				return fmt.Errorf("%s: %s is required", at, r)
			}
		}
		for k, val := range obj {
			if ps, has := props[k].(map[string]any); has {
				if err := validate(ps, val, at+"."+k); err != nil {
					return err
				}
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					return fmt.Errorf("%s: unknown key %q", at, k)
				}
			case map[string]any:
				if err := validate(ap, val, at+"."+k); err != nil {
					return err
				}
			}
		}
	}
	if arr, ok := v.([]any); ok {
		if m, has := s["minItems"].(float64); has && float64(len(arr)) < m {
			return fmt.Errorf("%s: want at least %v items", at, m)
		}
		if items, has := s["items"].(map[string]any); has {
			for i, x := range arr {
				if err := validate(items, x, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	}
	for _, sub := range asList(s["allOf"]) {
		if err := validate(sub.(map[string]any), v, at); err != nil {
			return err
		}
	}
	if list := asList(s["anyOf"]); list != nil && !slices.ContainsFunc(list, func(b any) bool { return validate(b.(map[string]any), v, at) == nil }) {
		return fmt.Errorf("%s: %v matches none of anyOf", at, v)
	}
	if list := asList(s["oneOf"]); list != nil {
		n := 0
		for _, b := range list {
			if validate(b.(map[string]any), v, at) == nil {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("%s: %v matches %d branches of oneOf", at, v, n)
		}
	}
	if not, ok := s["not"].(map[string]any); ok && validate(not, v, at) == nil {
		return fmt.Errorf("%s: matches a forbidden shape", at)
	}
	if cond, ok := s["if"].(map[string]any); ok {
		branch := "else"
		if validate(cond, v, at) == nil {
			branch = "then"
		}
		if b, ok := s[branch].(map[string]any); ok {
			if err := validate(b, v, at); err != nil {
				return err
			}
		}
	}
	return nil
}

func asList(v any) []any { l, _ := v.([]any); return l }

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

func hasType(v any, ty string) bool {
	switch ty {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := toFloat(v)
		return ok
	case "integer":
		f, ok := toFloat(v)
		return ok && f == math.Trunc(f)
	}
	return false
}

func jsonEqual(a, b any) bool {
	fa, oka := toFloat(a)
	fb, okb := toFloat(b)
	if oka && okb {
		return fa == fb
	}
	return reflect.DeepEqual(a, b)
}

// yamlValue converts YAML to the JSON value an editor's schema check sees
// (YAML 1.2: an unquoted date is a string).
func yamlValue(t *testing.T, src string) any {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	return jsonOf(t, doc.Content[0])
}

func jsonOf(t *testing.T, n *yaml.Node) any {
	switch n.Kind {
	case yaml.AliasNode:
		return jsonOf(t, n.Alias)
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = jsonOf(t, n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		l := []any{}
		for _, c := range n.Content {
			l = append(l, jsonOf(t, c))
		}
		return l
	}
	if n.ShortTag() == "!!timestamp" {
		return n.Value
	}
	var v any
	if err := n.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func readRepo(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSchemaAgreesWithParser(t *testing.T) {
	t.Parallel()
	s := loadSchema(t)
	readme := readRepo(t, "README.md")
	i := strings.Index(readme, "```yaml\n# latgate.yaml\n") // the README's suite
	readmeYAML := readme[i+8 : i+8+strings.Index(readme[i+8:], "```")]
	accepted := map[string]string{
		"examples/latgate.yaml":   readRepo(t, "examples/latgate.yaml"),
		"gate/demo.yaml":          strings.ReplaceAll(readRepo(t, "gate/demo.yaml"), "{{SIM}}", "http://127.0.0.1:1/v1"),
		"README.md":               readmeYAML,
		"good":                    good,
		"every api":               everyAPI,
		"cost, goodput, adaptive": costGoodputAdaptive,
	}
	opt := Options{ReadFile: func(string) ([]byte, error) { return []byte("x"), nil }, Getenv: func(string) string { return "v" }}
	for name, src := range accepted {
		t.Run(name, func(t *testing.T) {
			if _, err := Parse(name, []byte(src), opt); err != nil {
				t.Fatalf("the parser rejects it: %v", err)
			}
			if err := validate(s, yamlValue(t, src), "latgate.yaml"); err != nil {
				t.Errorf("the schema rejects what the parser accepts: %v", err)
			}
		})
	}
	base := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\n" + scen
	rejected := map[string]string{
		"tolerance 10":        base + "regression: {tolerance: 10}\n",
		"bare rate":           "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, rate: 2}\n",
		"bare min_delta":      base + "regression: {min_delta: 25}\n",
		"unknown key":         base + "regresion: {}\n",
		"unknown metric":      base + "budgets: {ttfb: {p95: 1}}\n",
		"custom without url":  "endpoints:\n  - {api: custom, stream: {text: /t}}\n" + scen,
		"azure key on chat":   "endpoints:\n  - {base_url: http://x/v1, model: m, deployment: d}\n" + scen,
		"min below 40":        "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, requests: {min: 10, max: 50}}\n",
		"history 1":           base + "regression: {history: 1}\n",
		"fractional requests": "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, requests: 12.9}\n",
		"fractional history":  base + "regression: {history: 2.5}\n",
		"trend 5":             base + "regression: {trend: 5}\n",
		"trend 5000":          base + "regression: {trend: 5000}\n",
		"max_cost unpriced":   base + "limits: {max_cost: 2}\n",
		"bad pointer":         "endpoints:\n  - {api: custom, url: http://x/a, stream: {text: message}}\n" + scen,
		"audio on chat":       "endpoints:\n  - {base_url: http://x/v1, model: m, audio: true}\n" + scen,
		"realtime no model":   "endpoints:\n  - {api: realtime, base_url: wss://x/v1}\n" + scen,
		"browser path":        "endpoints:\n  - {api: browser, url: http://x/, browser: {input: a, submit: b, output: c, path: tools/evil.sh}}\n" + scen,
	}
	for name, src := range rejected {
		t.Run(name, func(t *testing.T) {
			if _, err := Parse(name, []byte(src), opt); err == nil {
				t.Errorf("the parser accepts it")
			}
			if err := validate(s, yamlValue(t, src), "latgate.yaml"); err == nil {
				t.Errorf("the schema accepts what the parser rejects")
			}
		})
	}
}
