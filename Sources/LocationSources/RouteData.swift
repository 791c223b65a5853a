/// Waypoints of the built-in routes: street junctions placed from memory of the real street grid
/// (latitude, longitude in degrees; altitude in metres above sea level, approximate). They are meant
/// to look and feel right on a map, not to be survey-grade.
enum RouteData {
    typealias W = RouteGenerator.Waypoint

    /// San Francisco, clockwise from the south-east corner of Union Square: west on Geary, up Powell
    /// (the cable-car climb to California Street, slower uphill), east on California, down Grant through
    /// Chinatown's Dragon Gate, west on Post, south on Stockton. Waits at four crossings. About 1.6 km.
    /// The north-of-Market grid runs about 8.5° west of north; blocks are about 105 m by 141 m.
    static let walk: [W] = [
        W(37.78764, -122.40671, altitude: 17, dwell: 30),               // Stockton & Geary
        W(37.78745, -122.40830, altitude: 20),                          // Powell & Geary
        W(37.78839, -122.40848, altitude: 26),                          // Powell & Post
        W(37.78932, -122.40865, altitude: 33, dwell: 20, speedLimit: 1.15), // Powell & Sutter
        W(37.79026, -122.40883, altitude: 45, speedLimit: 1.1),         // Powell & Bush
        W(37.79119, -122.40901, altitude: 62, speedLimit: 1.1),         // Powell & Pine
        W(37.79213, -122.40918, altitude: 79, dwell: 15),               // Powell & California
        W(37.79232, -122.40760, altitude: 62),                          // Stockton & California
        W(37.79250, -122.40601, altitude: 42),                          // Grant & California
        W(37.79157, -122.40584, altitude: 33),                          // Grant & Pine
        W(37.79063, -122.40566, altitude: 25, dwell: 25),               // Grant & Bush (Dragon Gate)
        W(37.78970, -122.40548, altitude: 19),                          // Grant & Sutter
        W(37.78876, -122.40531, altitude: 16),                          // Grant & Post
        W(37.78857, -122.40689, altitude: 18),                          // Stockton & Post
    ]

    /// San Francisco waterfront: The Embarcadero from the Ferry Building north-west to Pier 39, a turn
    /// on the spot, and back. About 2.1 km each way, flat.
    static let run: [W] = outAndBack([
        W(37.79550, -122.39340, altitude: 3, dwell: 15),                // Ferry Building
        W(37.79730, -122.39560, altitude: 3),                           // Pier 1
        W(37.79890, -122.39790, altitude: 3),                           // Pier 7, Broadway
        W(37.80110, -122.40000, altitude: 3),                           // Pier 15, Green Street
        W(37.80330, -122.40230, altitude: 3),                           // Pier 23
        W(37.80530, -122.40420, altitude: 3),                           // Pier 27
        W(37.80740, -122.40640, altitude: 3),                           // Pier 33, Bay Street
        W(37.80870, -122.40960, altitude: 3),                           // Pier 39
    ])

    /// Cupertino, clockwise, starting on De Anza Boulevard just north of Stevens Creek Boulevard at
    /// cruising speed (so a new watcher sees motion at once): north on De Anza under
    /// I-280, east on Homestead Road along Apple Park, south on Wolfe Road, west on Stevens Creek.
    /// Right turns at the four corners; stops at six lights (18–40 s). About 6.3 km.
    static let cityDrive: [W] = [
        W(37.32620, -122.03222, altitude: 69),                          // De Anza at Cupertino City Hall (start: moving)
        W(37.32930, -122.03225, altitude: 67, dwell: 20),               // De Anza & Mariani / Valley Green
        W(37.33330, -122.03230, altitude: 63),                          // De Anza under I-280
        W(37.33760, -122.03240, altitude: 60, dwell: 30),               // De Anza & Homestead
        W(37.33765, -122.02520, altitude: 56, speedLimit: 13.4),        // Homestead & Blaney
        W(37.33770, -122.01480, altitude: 50, dwell: 25),               // Homestead & Wolfe
        W(37.33150, -122.01475, altitude: 55),                          // Wolfe over I-280
        W(37.32620, -122.01472, altitude: 58, dwell: 18),               // Wolfe & Vallco Parkway
        W(37.32350, -122.01470, altitude: 62),                          // Wolfe & Stevens Creek
        W(37.32335, -122.02520, altitude: 66, dwell: 35),               // Stevens Creek & Blaney
        W(37.32318, -122.02960, altitude: 70),                          // Stevens Creek & Torre
        W(37.32310, -122.03220, altitude: 72, dwell: 40),               // De Anza & Stevens Creek
    ]

    /// The freeway triangle of the South Bay, clockwise: CA-85 north from Cupertino to Mountain View,
    /// US-101 south-east through Sunnyvale and Santa Clara to San Jose, I-280 west back to Cupertino.
    /// The three freeway-to-freeway connectors are curves of 300–320 m radius. About 47 km.
    static let freewayDrive: [W] = RoutePoint.expanded([
        .corner(W(37.33700, -122.05750, altitude: 75), radius: 320),  // I-280 → CA-85 north, Cupertino
        .point(W(37.35000, -122.06050, altitude: 60)),                // CA-85 at Homestead / Fremont
        .point(W(37.36400, -122.06250, altitude: 45)),                // CA-85 near Grant Road
        .point(W(37.37700, -122.06500, altitude: 30)),                // CA-85 at El Camino Real
        .point(W(37.38900, -122.06750, altitude: 15)),                // CA-85 at Central Expressway
        .corner(W(37.40300, -122.07000, altitude: 8), radius: 320),   // CA-85 → US-101 south, Mountain View
        .point(W(37.39900, -122.04300, altitude: 6)),                 // US-101 at Ellis Street
        .point(W(37.39600, -122.02500, altitude: 6)),                 // US-101 at Mathilda Avenue
        .point(W(37.39150, -122.00800, altitude: 7)),                 // US-101 at Fair Oaks Avenue
        .point(W(37.38800, -121.99550, altitude: 8)),                 // US-101 at Lawrence Expressway
        .point(W(37.38700, -121.98000, altitude: 8)),                 // US-101 at Great America Parkway
        .point(W(37.38150, -121.96300, altitude: 9)),                 // US-101 at San Tomas Expressway
        .point(W(37.37400, -121.94200, altitude: 12)),                // US-101 at De La Cruz Boulevard
        .point(W(37.36800, -121.92300, altitude: 15)),                // US-101 at CA-87
        .point(W(37.36250, -121.90700, altitude: 18)),                // US-101 at First Street
        .point(W(37.35600, -121.89300, altitude: 20)),                // US-101 at I-880
        .point(W(37.34900, -121.87600, altitude: 24)),                // US-101 at Oakland Road
        .corner(W(37.33850, -121.84950, altitude: 30), radius: 300),  // US-101 → I-280 north, San Jose
        .point(W(37.33200, -121.86400, altitude: 32)),                // I-280 at McLaughlin Avenue
        .point(W(37.32900, -121.87600, altitude: 33)),                // I-280 at Tenth Street
        .point(W(37.32650, -121.88900, altitude: 35)),                // I-280 at CA-87
        .point(W(37.32500, -121.90500, altitude: 36)),                // I-280 at Bird Avenue
        .point(W(37.31950, -121.93400, altitude: 40)),                // I-280 at I-880
        .point(W(37.32000, -121.95200, altitude: 44)),                // I-280 at Winchester Boulevard
        .point(W(37.32250, -121.97500, altitude: 50)),                // I-280 at Saratoga Avenue
        .point(W(37.33000, -121.99600, altitude: 55)),                // I-280 at Lawrence Expressway
        .point(W(37.33180, -122.01500, altitude: 60)),                // I-280 at Wolfe Road
        .point(W(37.33280, -122.03200, altitude: 65)),                // I-280 at De Anza Boulevard
    ], closed: true)

    /// A there-and-back path from a one-way list: the way out, then the way back through the same
    /// points. The generator's turn rule makes the traveller slow to a halt for the U-turn at the far end.
    static func outAndBack(_ way: [W]) -> [W] {
        var back = Array(way.dropFirst().dropLast().reversed())
        for index in back.indices { back[index].dwell = 0 }
        return way + back
    }
}
