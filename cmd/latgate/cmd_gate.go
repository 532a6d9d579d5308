package main

func cmdGate(e *env, args []string) error    { return usagef("gate: not built yet") }
func cmdPublish(e *env, args []string) error { return usagef("publish: not built yet") }
