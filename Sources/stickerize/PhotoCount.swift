/// How the closing summaries on standard error count inputs: "1 photo", "0 photos", "3 photos".
func photoCount(_ count: Int) -> String {
    count == 1 ? "1 photo" : "\(count) photos"
}
