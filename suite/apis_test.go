package suite

// The APIs an endpoint can speak are registered by package probe's files
// (package apis is their registry); the program links probe through gate.
import _ "github.com/latgate/latgate/probe"
