package pipeline

// Version is the pathflow release written into every output's metadata.
const Version = "0.1.0"
