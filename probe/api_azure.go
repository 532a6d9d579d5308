package probe

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/latgate/latgate/apis"
)

// Azure is Azure OpenAI chat completions: a deployment of a resource,
// chat completions' body and stream.
const Azure API = "azure"

func init() {
	register(description{
		Spec: apis.Spec{
			Name: string(Azure), Order: 50,
			Keys: []string{apis.BaseURL, "deployment", "api_version"},
			Needs: []apis.Need{{Key: "deployment", Says: "deployment (the model deployment's name)"},
				{Key: "api_version", Says: "api_version (such as 2024-10-21)"}},
			Address:   apis.Address{Key: apis.BaseURL, Example: "https://RESOURCE.openai.azure.com", Path: "/chat/completions"},
			ModelFrom: "deployment", Auth: apis.Auth{Header: "api-key"},
			Tools: apis.ClientTools, Turns: true,
			OTel:  apis.OTel{Provider: "azure.ai.openai"},
			Check: azureDeployment,
		},
		url:          azureURL,
		body:         func(p BodyParams) any { return chatBody(p) },
		wire:         func(Request) wire { return chatWire },
		serverTiming: []*timingForm{formOpenAI},
	})
}

// deployments is the path segment of an Azure deployment's URL.
const deployments = "/openai/deployments/"

// azureURL is the deployment's chat completions: base_url is the resource
// (https://R.openai.azure.com), to which the deployment's path is added,
// or already that deployment's URL.
func azureURL(t Target) string {
	base := t.BaseURL
	if u, err := url.Parse(base); (err != nil || !strings.Contains(u.Path, deployments)) && t.Deployment != "" {
		base += deployments + url.PathEscape(t.Deployment)
	}
	return base + "/chat/completions?api-version=" + url.QueryEscape(t.APIVersion)
}

// azureDeployment reads the deployment a base_url up to it names: it is
// the deployment when none is given, and must be the one given.
func azureDeployment(keys map[string]string, path string) (map[string]string, []apis.Problem) {
	i := strings.Index(path, deployments)
	if i < 0 {
		return nil, nil
	}
	dep, _, _ := strings.Cut(path[i+len(deployments):], "/")
	switch given := keys["deployment"]; {
	case given == "":
		return map[string]string{"deployment": dep}, nil
	case given != dep:
		return nil, []apis.Problem{{Key: apis.BaseURL, Msg: fmt.Sprintf("base_url %q names deployment %q but deployment is %q: give base_url up to .openai.azure.com and deployment: NAME",
			keys[apis.BaseURL], dep, given)}}
	}
	return nil, nil
}
