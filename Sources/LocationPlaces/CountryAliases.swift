/// Common names for countries that differ from the database's English short names (folded keys → ISO code).
enum CountryAliases {
    static func code(forFolded name: String) -> String? { aliases[name] }

    private static let aliases: [String: String] = [
        "usa": "US", "u s a": "US", "u s": "US", "america": "US", "united states of america": "US",
        "uk": "GB", "u k": "GB", "great britain": "GB", "britain": "GB", "england": "GB", "scotland": "GB",
        "wales": "GB", "northern ireland": "GB",
        "uae": "AE", "emirates": "AE",
        "russian federation": "RU", "korea": "KR", "republic of korea": "KR", "dprk": "KP",
        "netherlands": "NL", "holland": "NL", "czech republic": "CZ", "deutschland": "DE",
        "espana": "ES", "italia": "IT", "schweiz": "CH", "suisse": "CH", "osterreich": "AT",
        "cote d ivoire": "CI", "swaziland": "SZ", "burma": "MM", "east timor": "TL", "vatican city": "VA",
        "macedonia": "MK", "turkiye": "TR", "drc": "CD", "dr congo": "CD", "congo brazzaville": "CG",
        "palestine": "PS", "prc": "CN", "people s republic of china": "CN",
    ]
}

/// The two-letter postal abbreviations of the US states and DC ("Paris, TX").
enum USStateAbbreviations {
    static func name(forFolded abbreviation: String) -> String? { states[abbreviation] }

    private static let states: [String: String] = [
        "al": "Alabama", "ak": "Alaska", "az": "Arizona", "ar": "Arkansas", "ca": "California",
        "co": "Colorado", "ct": "Connecticut", "de": "Delaware", "dc": "Washington, D.C.", "fl": "Florida",
        "ga": "Georgia", "hi": "Hawaii", "id": "Idaho", "il": "Illinois", "in": "Indiana", "ia": "Iowa",
        "ks": "Kansas", "ky": "Kentucky", "la": "Louisiana", "me": "Maine", "md": "Maryland",
        "ma": "Massachusetts", "mi": "Michigan", "mn": "Minnesota", "ms": "Mississippi", "mo": "Missouri",
        "mt": "Montana", "ne": "Nebraska", "nv": "Nevada", "nh": "New Hampshire", "nj": "New Jersey",
        "nm": "New Mexico", "ny": "New York", "nc": "North Carolina", "nd": "North Dakota", "oh": "Ohio",
        "ok": "Oklahoma", "or": "Oregon", "pa": "Pennsylvania", "ri": "Rhode Island", "sc": "South Carolina",
        "sd": "South Dakota", "tn": "Tennessee", "tx": "Texas", "ut": "Utah", "vt": "Vermont",
        "va": "Virginia", "wa": "Washington", "wv": "West Virginia", "wi": "Wisconsin", "wy": "Wyoming",
    ]
}
