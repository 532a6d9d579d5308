module github.com/latgate/latgate

go 1.26

require (
	github.com/sashabaranov/go-openai v1.43.0
	go.yaml.in/yaml/v3 v3.0.6
)

require gonum.org/v1/gonum v0.17.0 // indirect
