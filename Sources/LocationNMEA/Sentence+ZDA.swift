/// ZDA, time and date: `time, day, month, year (4 digits)[, local zone hours, minutes]`.
struct ZDA {
    var timeOfDay: Int64?
    /// Days since 1970-01-01; nil when the date fields are empty.
    var date: Int?

    @inline(__always) init(_ c: inout FieldCursor) throws(Malformed) {
        timeOfDay = try c.next().optionalTimeOfDay()
        let day = try c.next(), month = try c.next(), year = try c.next()
        if day.isEmpty, month.isEmpty, year.isEmpty {
            date = nil
        } else {
            guard day.count == 2, month.count == 2, year.count == 4 else { throw Malformed() }
            date = try CivilDate.days(
                year: year.digits(at: 0, 4), month: month.digits(at: 0, 2), day: day.digits(at: 0, 2))
        }
    }
}
